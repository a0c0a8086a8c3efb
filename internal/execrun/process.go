package execrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// defaultDrainTimeout bounds how long Run waits for the output pipes to close
// once the process group is dead: a process that left the group (setsid) may
// still hold them.
const defaultDrainTimeout = 2 * time.Second

// supervise starts cmd, stops it at the timeout or when ctx ends, kills what
// it left behind, and collects the result.
// started, when set, is the confinement's launcher that cmd starts: it gets
// its policy once started, and a launcher that could not confine itself
// makes the run an error, not a result.
func (r *Runner) supervise(ctx context.Context, cmd *osexec.Cmd, req core.RunRequest, marker string, started *launch.Launch) (core.RunResult, error) {
	stdout := sandbox.NewCappedWriter(req.MaxOutputBytes)
	stderr := sandbox.NewCappedWriter(req.MaxOutputBytes)
	outR, outW, err := os.Pipe()
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: creating stdout pipe: %w", req.File, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return core.RunResult{}, fmt.Errorf("running %s: creating stderr pipe: %w", req.File, err)
	}
	// The pipes are *os.File, so os/exec hands them to the child as they are and
	// Wait returns when the leader exits, not when the last holder of the pipe
	// does. Copying is ours, and so is deciding when to stop.
	cmd.Stdout, cmd.Stderr = outW, errW

	r.logger.Debug("running script", "file", req.File, "runner", r.String(), "dir", cmd.Dir)
	began := time.Now()
	var startErr error
	endRun := r.procs.StartRun(marker, func() int {
		if startErr = cmd.Start(); startErr != nil {
			return 0
		}
		if started != nil {
			started.Started()
		}
		return cmd.Process.Pid
	})
	if startErr != nil {
		endRun()
		closeAll(outR, outW, errR, errW)
		if started != nil {
			started.Close()
		}
		return core.RunResult{}, fmt.Errorf("running %s: starting %q: %w", req.File, r.program, startErr)
	}
	closeAll(outW, errW)

	var copiers sync.WaitGroup
	copiers.Go(func() { _, _ = io.Copy(stdout, outR) })
	copiers.Go(func() { _, _ = io.Copy(stderr, errR) })

	exited := make(chan struct{})
	stopped := make(chan stopReason, 1)
	go func() { stopped <- r.watch(ctx, cmd.Process, req, exited) }()

	waitErr := cmd.Wait()
	endRun()
	close(exited)
	reason := <-stopped

	if killed, err := launch.KillGroup(cmd.Process); err != nil {
		r.logger.Warn("killing leftover processes", "file", req.File, "error", err)
	} else if killed {
		r.logger.Debug("killed leftover processes of the script", "file", req.File)
	}
	if n, err := launch.KillMarked(marker); err != nil {
		r.logger.Warn("killing processes that left the script's group", "file", req.File, "error", err)
	} else if n > 0 {
		r.logger.Warn("killed processes that left the script's group", "file", req.File, "count", n)
	}
	// What cleared its environment too (env -i) was reparented to the server
	// (a subreaper): kill what no run in progress claims.
	if n, err := r.procs.KillOrphans(); err != nil {
		r.logger.Warn("killing orphaned processes", "file", req.File, "error", err)
	} else if n > 0 {
		r.logger.Warn("killed orphaned processes a script left", "file", req.File, "count", n)
	}
	r.drainPipes(&copiers, req.File, outR, errR)
	duration := time.Since(began)

	if cmd.ProcessState == nil {
		return core.RunResult{}, fmt.Errorf("running %s: waiting for %q: %w", req.File, r.program, waitErr)
	}
	if started != nil {
		if err := started.Failure(); err != nil {
			return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
		}
	}
	res := launch.CapturedResult(launch.ExitCode(cmd.ProcessState), stdout, stderr, duration)
	switch reason {
	case stopTimeout:
		res.TimedOut = true
		res.ExitCode = core.TimeoutExitCode
		res.Stderr = launch.AppendLine(res.Stderr, core.TimeoutMarker)
	case stopCancel:
		return res, fmt.Errorf("running %s: %w", req.File, context.Canceled)
	}
	return res, nil
}

// stopReason says why the watcher stopped the script, if it did.
type stopReason int

const (
	stopNone    stopReason = iota // the script exited by itself
	stopTimeout                   // req.Timeout or ctx's deadline passed
	stopCancel                    // ctx was cancelled
)

// watch waits for the script to exit, the timeout, or ctx. On timeout or
// cancellation it sends SIGTERM to the group, then SIGKILL after the grace
// period unless the leader exits first. It returns once the leader has exited
// (exited is closed) and says why the script stopped.
func (r *Runner) watch(ctx context.Context, p *os.Process, req core.RunRequest, exited <-chan struct{}) stopReason {
	var deadline <-chan time.Time
	if req.Timeout > 0 {
		timer := time.NewTimer(req.Timeout)
		defer timer.Stop()
		deadline = timer.C
	}
	var reason stopReason
	select {
	case <-exited:
		return stopNone
	case <-deadline:
		reason = stopTimeout
	case <-ctx.Done():
		reason = stopCancel
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = stopTimeout
		}
	}
	select {
	case <-exited: // it finished on its own just in time
		return stopNone
	default:
	}
	wait := r.grace
	if reason == stopCancel {
		wait = r.cancelGrace
	}
	r.logger.Warn("stopping script", "file", req.File, "reason", reasonText(reason), "grace", wait)
	if err := launch.TerminateGroup(p); err != nil {
		r.logger.Warn("terminating script", "file", req.File, "error", err)
	}
	grace := time.NewTimer(wait)
	defer grace.Stop()
	select {
	case <-exited:
	case <-grace.C:
		r.logger.Warn("killing script after the grace period", "file", req.File)
		if _, err := launch.KillGroup(p); err != nil {
			r.logger.Warn("killing script", "file", req.File, "error", err)
		}
		<-exited
	}
	return reason
}

func reasonText(reason stopReason) string {
	if reason == stopCancel {
		return "cancelled"
	}
	return "timeout"
}

// drainPipes waits for the copiers to reach EOF. A process that escaped the
// group may hold a pipe open forever; after the drain timeout the read ends are
// closed, which ends the copies.
func (r *Runner) drainPipes(copiers *sync.WaitGroup, file string, pipes ...*os.File) {
	drained := make(chan struct{})
	go func() {
		copiers.Wait()
		close(drained)
	}()
	timer := time.NewTimer(r.drain)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		r.logger.Warn("output pipes still open after the script's process group ended; closing them", "file", file)
	}
	closeAll(pipes...)
	<-drained
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
