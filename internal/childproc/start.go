package childproc

import (
	"os"
	"os/exec"

	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// Start starts cmd as a helper of this process: leading a process group of
// its own (so that KillGroup ends whatever it started too) and, on Linux,
// bound to this process's life: the kernel sends it SIGKILL when the server
// ends, however it ends (kill -9 included), so no helper outlives the server
// (issue 26, item 8). Elsewhere there is no such signal and a helper may
// outlive a server that was killed.
//
// Linux sends that signal when the thread that started the child ends, not
// the process; Start therefore starts every helper from one goroutine locked
// to its thread for the life of the process, never from the caller's thread,
// which the Go runtime ends when a goroutine exits locked to it.
//
// The helper is registered in procs (StartHelper), so that the server's
// reaping of what scripts leave behind neither kills it nor reaps it before
// its own Wait; nil procs registers nothing (a helper starting its own
// children, a server that reaps nothing).
func Start(cmd *exec.Cmd, procs *launch.Processes) error {
	launch.StartInGroup(cmd)
	bindToParent(cmd)
	var err error
	procs.StartHelper(func() int {
		if err = startOnStarterThread(cmd); err != nil {
			return 0
		}
		return cmd.Process.Pid
	})
	return err
}

// KillGroup kills the process group that Start made for p (SIGKILL), p and
// what it started; a group already gone is not an error.
func KillGroup(p *os.Process) {
	if p != nil {
		_, _ = launch.KillGroup(p)
	}
}
