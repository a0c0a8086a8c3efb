package skillscmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// startReaping makes the process the subreaper of what its scripts start
// (linux), so that processes escaping a run's group and environment are
// reparented to it and killed when the run ends (issue 16, item 9). Each
// time a child ends (SIGCHLD) it reaps the zombies reparented to it: an
// orphan that ended during its run, and as PID 1 (a container's init) every
// orphan of the container. An idle server never wakes up for it. procs is
// what it spares: the runs and helpers in progress.
func startReaping(ctx context.Context, procs *launch.Processes) {
	if err := launch.EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "skills-mcp: cannot become the subreaper of scripts' processes: "+err.Error())
		if os.Getpid() != 1 {
			return
		}
	}
	if len(childEnded) == 0 {
		return
	}
	// One pending signal is enough: each wake-up reaps every zombie there is.
	ended := make(chan os.Signal, 1)
	signal.Notify(ended, childEnded...)
	go func() {
		defer signal.Stop(ended)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ended:
				procs.ReapZombies()
			}
		}
	}()
}
