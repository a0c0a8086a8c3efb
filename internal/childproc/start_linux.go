package childproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// bindToParent has the kernel kill cmd when the thread that starts it ends.
func bindToParent(cmd *exec.Cmd) {
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// starter is the goroutine that starts every helper, locked to its thread,
// which therefore lives as long as the process.
var starter struct {
	once sync.Once
	work chan func()
}

// startOnStarterThread starts cmd from the starter's thread.
func startOnStarterThread(cmd *exec.Cmd) error {
	starter.once.Do(func() {
		starter.work = make(chan func())
		go func() {
			// Never unlocked and never returns: the thread is not ended
			// while the process runs, so Pdeathsig follows the process.
			runtime.LockOSThread()
			for f := range starter.work {
				f()
			}
		}()
	})
	done := make(chan error, 1)
	starter.work <- func() { done <- cmd.Start() }
	return <-done
}
