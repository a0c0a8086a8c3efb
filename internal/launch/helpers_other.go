//go:build !linux

package launch

// startTime is "" where there is no /proc: nothing is registered, and
// nothing needs to be, since KillOrphans and ReapZombies do nothing there.
func startTime(int) string { return "" }
