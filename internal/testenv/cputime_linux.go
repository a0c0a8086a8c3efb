package testenv

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU runs f on one locked OS thread and returns the CPU time that
// thread spent in it (CLOCK_THREAD_CPUTIME_ID): unlike wall time, it does not
// grow when other processes take the machine's cores, so cost ratios measured
// with it hold on a loaded CI machine. f must not hand its work to other
// goroutines.
func ThreadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var start, end unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &start) != nil {
		return wall(f)
	}
	f()
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &end) != nil {
		return wall(f)
	}
	return time.Duration(end.Nano() - start.Nano())
}
