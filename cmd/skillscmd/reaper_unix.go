//go:build unix

package skillscmd

import (
	"os"
	"syscall"
)

// childEnded is the signal a process gets when a child (or, as a subreaper or
// PID 1, an orphan reparented to it) ends.
var childEnded = []os.Signal{syscall.SIGCHLD}
