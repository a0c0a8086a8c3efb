package sandbox

import (
	"os"
	"os/exec"

	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// StartInGroup makes cmd, once started, the leader of a new process group, so
// that everything the script forks can be signalled together with
// TerminateGroup and KillGroup. Call it before cmd.Start. Where the OS has no
// process groups (Windows) it does nothing and the group functions act on
// the process alone.
func StartInGroup(cmd *exec.Cmd) { launch.StartInGroup(cmd) }

// TerminateGroup asks every process of the group led by p to stop (SIGTERM).
// A group that is already gone is not an error.
func TerminateGroup(p *os.Process) error { return launch.TerminateGroup(p) }

// KillGroup kills every process of the group led by p (SIGKILL). It reports
// whether the group still had members to receive the signal (zombies not yet
// reaped count); a group that is already gone is not an error. It works after
// the leader has been waited for, which is how background children a script
// left behind are cleaned up.
func KillGroup(p *os.Process) (bool, error) { return launch.KillGroup(p) }
