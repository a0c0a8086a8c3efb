package launch

import (
	"errors"
	"runtime"
)

// ErrNoProcessGroups reports that the platform gives a script's process no
// group of its own: a timeout or shutdown stops the script's process, but
// processes it started may outlive it.
var ErrNoProcessGroups = errors.New("process groups are not available on " + runtime.GOOS +
	": a script's own child processes are not stopped with it")

// ProcessGroups reports whether StartInGroup, TerminateGroup and KillGroup act
// on a whole process tree here: nil on Unix systems, ErrNoProcessGroups where
// they act on the process alone (Windows). Callers log it once and go on.
func ProcessGroups() error { return processGroups }
