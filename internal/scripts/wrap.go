package scripts

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// noteRoom is how far past MaxOutputBytes a stream a runner returns may run
// before the wrapper cuts it: the room for the notes a runner adds on lines
// of their own after its own cap (the truncation note, the timeout marker,
// a trap). A runner that caps nothing is cut at MaxOutputBytes.
const noteRoom = 4 << 10

// call runs req with runner under the wrapper every runner gets, and calls
// end once the runner has returned (at once, or later when it outlives its
// grace):
//   - the timeout: ctx gets req.Timeout as its deadline; a runner that
//     returns an error once it has passed, or has not returned r.grace after
//     it, is a timed-out result (core.TimeoutExitCode, core.TimeoutMarker on
//     the last line of stderr) with what it had written;
//   - the output caps: req.Stdout and req.Stderr keep MaxOutputBytes each and
//     fail every write once ctx is done; the streams a runner returns are cut
//     at MaxOutputBytes too (when it did not cut them itself), the truncation
//     note on a line of its own;
//   - a panic of the runner is an error, not the server's end.
func (r *Runs) call(ctx context.Context, runner core.Runner, req core.RunRequest, end func()) (core.RunResult, error) {
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if req.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, req.Timeout)
	}
	defer cancel()
	stdout, stderr := newStream(req.MaxOutputBytes), newStream(req.MaxOutputBytes)
	req.Stdout, req.Stderr = stdout, stderr
	stopWrites := context.AfterFunc(runCtx, func() {
		stdout.stop(runCtx.Err())
		stderr.stop(runCtx.Err())
	})
	defer stopWrites()

	type outcome struct {
		res core.RunResult
		err error
	}
	ended := make(chan outcome, 1)
	began := time.Now()
	go func() {
		var out outcome
		func() {
			defer func() {
				if v := recover(); v != nil {
					r.log.Error("a runner panicked", "file", req.File, "panic", v, "stack", string(debug.Stack()))
					out = outcome{err: fmt.Errorf("running %s: the runner failed: %v", req.File, v)}
				}
			}()
			out.res, out.err = runner.Run(runCtx, req)
		}()
		end() // the scratch directory is gone and the slot free before the answer
		ended <- out
	}()

	var out outcome
	abandoned := false
	select {
	case out = <-ended:
	case <-runCtx.Done():
		grace := time.NewTimer(r.grace)
		select {
		case out = <-ended:
		case <-grace.C:
			abandoned = true
			r.log.Warn("the runner has not returned after its run's deadline: answering without it; its slot stays taken until it does",
				"file", req.File, "grace", r.grace)
			out.err = runCtx.Err()
		}
		grace.Stop()
	}
	stdout.stop(context.Canceled) // what a runner left behind writes no more
	stderr.stop(context.Canceled)

	res := out.res
	if abandoned {
		res = core.RunResult{}
	}
	res.Stdout, res.StdoutTruncated = merge(stdout, res.Stdout, res.StdoutTruncated, req.MaxOutputBytes)
	res.Stderr, res.StderrTruncated = merge(stderr, res.Stderr, res.StderrTruncated, req.MaxOutputBytes)
	if res.Duration <= 0 {
		res.Duration = time.Since(began)
	}
	err := out.err
	// Past the deadline, a runner's error is a timed-out result, and so is a
	// cancellation while the caller still waits: the run's own timeout
	// passed (a helper stopped at that moment reports a cancellation). A
	// caller that went away keeps its cancellation.
	pastDeadline := errors.Is(runCtx.Err(), context.DeadlineExceeded)
	if err != nil && !res.TimedOut && pastDeadline && (!errors.Is(err, context.Canceled) || ctx.Err() == nil) {
		r.log.Debug("the run's deadline passed: a timed-out result", "file", req.File, "runner_error", err)
		res.TimedOut, res.ExitCode, err = true, core.TimeoutExitCode, nil
		res.Stderr = launch.AppendLine(res.Stderr, core.TimeoutMarker)
	}
	return res, err
}

// merge is a result stream: what the runner wrote to w (capped there), then
// what it returned, cut at max (when max > 0); a stream the runner returned
// alone is kept as it is while it stays within max and the room for its
// notes (it applied the cap itself). The truncation note ends a stream that
// was cut.
func merge(w *stream, returned string, cutByRunner bool, max int64) (string, bool) {
	written, truncated := w.content()
	if written == "" && (max <= 0 || int64(len(returned)) <= max+noteRoom) {
		return returned, cutByRunner
	}
	s := written + returned
	truncated = truncated || cutByRunner
	if max > 0 && int64(len(s)) > max {
		s, truncated = s[:max], true
	}
	if truncated {
		s = launch.AppendLine(s, sandbox.TruncationNote)
	}
	return s, truncated
}

// stream is a runner's output stream: the first max bytes kept, the rest
// dropped without failing the write, every write failing once stopped.
type stream struct {
	kept *sandbox.CappedWriter
	mu   sync.Mutex
	err  error // why writes fail; nil while they do not
}

func newStream(max int64) *stream { return &stream{kept: sandbox.NewCappedWriter(max)} }

// Write keeps what fits under the cap; once the run's deadline has passed it
// fails with an error wrapping context.DeadlineExceeded.
func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	return s.kept.Write(p)
}

// stop makes every later write fail with cause (the first cause stays).
func (s *stream) stop(cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = fmt.Errorf("the run is over: %w", cause)
	}
}

func (s *stream) content() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kept.String(), s.kept.Truncated()
}
