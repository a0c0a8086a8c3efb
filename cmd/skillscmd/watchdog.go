package skillscmd

import (
	"context"
	"fmt"
	"os"
	"time"
)

// exitDeadline is how long the process may take to stop after SIGINT or
// SIGTERM: the shutdown steps share shutdownSteps, below it (shutdown.go),
// and the watchdog ends the process if one step hangs anyway (issue 16, item
// 5: SIGTERM always ends it within 5 s).
const exitDeadline = 4500 * time.Millisecond

// exitWatchdog exits the process exitDeadline after ctx (the signal context)
// is done, unless it has returned by then.
func exitWatchdog(ctx context.Context) {
	<-ctx.Done()
	time.Sleep(exitDeadline)
	fmt.Fprintf(os.Stderr, "skills-mcp: still stopping %v after the signal; exiting now\n", exitDeadline)
	os.Exit(exitFailed)
}
