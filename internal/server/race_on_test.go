//go:build race

package server

// raceDetector reports a test binary built with -race, whose sync.Pool drops
// items at random: tests counting allocations allow for it.
const raceDetector = true
