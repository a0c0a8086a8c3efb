package skillscmd

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The exit budget (issue 26, item 6): after SIGINT or SIGTERM the process
// exits within 5 s, with code 0, whatever its peers do. The steps share
// shutdownSteps from the signal, in this order:
//
//   - every request in flight is cancelled at once (cancelOnStop): a running
//     script gets SIGTERM, then SIGKILL scriptStopGrace later;
//   - serve --http closes its connections (at most httpShutdownTimeout);
//   - analytics writes the queued events to its buffer (an fsync), then
//     tries a last delivery (at most shutdownFlushTimeout);
//   - telemetry exports its last spans and metrics with what remains.
//
// exitWatchdog ends a process still stopping at exitDeadline, for a step that
// ignores its bound.
const (
	shutdownSteps   = 3500 * time.Millisecond
	scriptStopGrace = time.Second
)

// stopClock remembers when the shutdown began: when ctx (the signal context)
// ended, else (the client closed stdin) when deadline is first asked.
type stopClock struct {
	mu sync.Mutex
	at time.Time
}

// newStopClock returns a clock that starts when ctx ends.
func newStopClock(ctx context.Context) *stopClock {
	c := &stopClock{}
	context.AfterFunc(ctx, func() { c.start() })
	return c
}

func (c *stopClock) start() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		c.at = time.Now()
	}
	return c.at
}

// deadline is when every shutdown step must be done.
func (c *stopClock) deadline() time.Time { return c.start().Add(shutdownSteps) }

// errStopping is the cause of the cancellation of requests in flight at shutdown.
var errStopping = errors.New("the server is shutting down")

// cancelOnStop cancels every request in flight when stop ends. The go-sdk's
// session close waits for the handlers, whose contexts do not end with the
// signal: a running script got no signal at all, and the watchdog ended the
// process with the script left running (issue 26, item 6).
func cancelOnStop(stop context.Context) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			defer context.AfterFunc(stop, func() { cancel(errStopping) })()
			return next(ctx, method, req)
		}
	}
}
