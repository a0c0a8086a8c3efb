//go:build !linux

package testenv

import "time"

// ThreadCPU runs f and returns its wall time: the thread's CPU clock is read
// on Linux only.
func ThreadCPU(f func()) time.Duration { return wall(f) }
