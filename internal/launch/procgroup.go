package launch

import (
	"os"
	"os/exec"
)

// StartInGroup makes cmd, once started, the leader of a new process group, so
// that everything the script forks can be signalled together with TerminateGroup
// and KillGroup. Call it before cmd.Start. Where the OS has no process groups it
// does nothing and the group helpers act on the process alone.
func StartInGroup(cmd *exec.Cmd) { startInGroup(cmd) }

// TerminateGroup asks every process of the group led by p to stop (SIGTERM). A
// group that is already gone is not an error.
func TerminateGroup(p *os.Process) error { return terminateGroup(p) }

// KillGroup kills every process of the group led by p (SIGKILL). It reports
// whether the group still had members to receive the signal (zombies not yet
// reaped count); a group that is already gone is not an error. It works after the leader has been waited for,
// which is how background children a script left behind are cleaned up.
func KillGroup(p *os.Process) (bool, error) { return killGroup(p) }

// GroupAlive reports whether a process of the group led by pid is still
// running. On Linux, zombies (dead, not yet reaped by their parent) do not
// count; on other Unix systems they may. Where the OS has no process groups it
// reports false.
func GroupAlive(pid int) bool { return groupAlive(pid) }

// ExitCode returns the exit code a finished process reports: its exit status,
// or 128+signal when a signal killed it (the shell convention: 137 for SIGKILL).
func ExitCode(state *os.ProcessState) int { return exitCode(state) }
