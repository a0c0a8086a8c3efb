package skillscmd

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/skills-mcp/skills-mcp/sandbox"
)

// zombieReapInterval is how often the server reaps the zombies reparented to
// it (a subreaper's: what its scripts left; PID 1's: every orphan of the
// container).
const zombieReapInterval = 2 * time.Second

// startReaping makes the process the subreaper of what its scripts start
// (linux), so that processes escaping a run's group and environment are
// reparented to it and killed when the run ends (issue 16, item 9). Every
// zombieReapInterval it reaps the zombies reparented to it: an orphan that
// ended during its run, and as PID 1 (a container's init) every orphan of
// the container.
func startReaping(ctx context.Context) {
	if err := sandbox.EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "skills-mcp: cannot become the subreaper of scripts' processes: "+err.Error())
		if os.Getpid() != 1 {
			return
		}
	}
	go func() {
		t := time.NewTicker(zombieReapInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				sandbox.ReapZombies()
			}
		}
	}()
}
