package testenv

import "time"

// wall is f's wall-clock time.
func wall(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
