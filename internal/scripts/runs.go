package scripts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// MaxConcurrentEnv names the operator's bound of script runs at once.
const MaxConcurrentEnv = "SKILLS_SCRIPTS_MAX_CONCURRENT"

// Runs is the path every script run takes once Prepare has passed it,
// whatever its runner (issue 26, items 1 and 7; issue 27): it waits for one
// of a bounded number of slots, gives the run a fresh scratch directory,
// checks that the script's path still leads to the file Prepare pinned,
// and calls the runner under the wrapper (wrap.go): the timeout as ctx's
// deadline, the output caps. run_script and the CLI's `run` both go through
// it. It is safe for concurrent use.
type Runs struct {
	slots chan struct{}
	work  *confine.WorkDirs
	log   hclog.Logger
	// grace is how long a runner may take to return past its run's
	// deadline before the run is answered without it (DefaultGrace).
	grace time.Duration
}

// DefaultGrace is how long past its run's deadline a runner may take to
// return before the run is answered as timed out without it: longer than the
// exec runner's SIGTERM-to-SIGKILL grace and pipe drain, so a process
// runner always reports its own kill.
const DefaultGrace = 10 * time.Second

// DefaultMaxConcurrent is the bound of script runs at once, all runners
// together, when the operator sets none: twice the cores, at most 8.
func DefaultMaxConcurrent() int { return min(2*runtime.NumCPU(), 8) }

// NewRuns returns the run path: at most maxConcurrent runs at once
// (DefaultMaxConcurrent() when 0 or less), working directories
// decided by work (nil: scratch directories only, under os.TempDir()),
// logging to log (nil: nowhere).
func NewRuns(maxConcurrent int, work *confine.WorkDirs, log hclog.Logger) *Runs {
	if maxConcurrent <= 0 {
		maxConcurrent = DefaultMaxConcurrent()
	}
	if log == nil {
		log = hclog.NewNullLogger()
	}
	return &Runs{slots: make(chan struct{}, maxConcurrent), work: work, log: log, grace: DefaultGrace}
}

// Limit is the bound of runs at once.
func (r *Runs) Limit() int { return cap(r.slots) }

// Run runs p, and releases the script Prepare opened. When Limit runs are
// going on, it waits for one to end, within p's own timeout (the wait
// counts against it: the script gets what is left) and ctx; past it, the
// error wraps core.ErrRunLimit and context.DeadlineExceeded and names
// MaxConcurrentEnv. Every run gets a fresh scratch directory (req.Scratch),
// removed once the runner has returned (its processes are gone by then); a
// run without a working directory works there. A script whose path no
// longer leads to the file Prepare opened is not run: an error wrapping
// core.ErrPathTraversal.
//
// The runner is called as the wrapper says (call): with the timeout as
// ctx's deadline, the script handle, and capped output streams; a runner
// that errs once the deadline has passed (or has not returned DefaultGrace
// after it) is a timed-out result, its output kept up to the caps. A slot
// stays taken until the runner has returned, even when the run was
// answered without it.
func (r *Runs) Run(ctx context.Context, p Prepared) (core.RunResult, error) {
	script := p.file
	p.file = nil
	if script == nil {
		return core.RunResult{}, fmt.Errorf("running %s: the run was not prepared (or already run): %w", p.Request.File, core.ErrInvalidArgument)
	}
	return r.run(ctx, p.Runner, p.Request, script)
}

// RunFile runs the script req.ScriptPath with runner through the same path
// as Run, for a run prepared outside a snapshot (runnertest, a runner's
// own tests): the script is opened through a confine.Root on req.SkillDir,
// where it must lie.
func (r *Runs) RunFile(ctx context.Context, runner core.Runner, req core.RunRequest) (core.RunResult, error) {
	if !confine.Within(req.SkillDir, req.ScriptPath) {
		return core.RunResult{}, fmt.Errorf("running %s: %s is not inside %s: %w", req.File, req.ScriptPath, req.SkillDir, core.ErrPathTraversal)
	}
	script, err := openFile(req.SkillDir, req.ScriptPath, req.File)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	return r.run(ctx, runner, req, script)
}

// run is Run once the script is open; it owns script.
func (r *Runs) run(ctx context.Context, runner core.Runner, req core.RunRequest, script *os.File) (core.RunResult, error) {
	var ends []func() // what to do once the runner has returned, last first
	end := func() {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i]()
		}
	}
	ends = append(ends, func() { _ = script.Close() })
	waited, err := r.acquire(ctx, req)
	if err != nil {
		end()
		return core.RunResult{}, err
	}
	ends = append(ends, func() { <-r.slots })
	if req.Timeout > 0 {
		if req.Timeout -= waited; req.Timeout <= 0 { // a slot freed just as the wait ran out: zero would mean no limit
			end()
			return core.RunResult{}, r.atLimit(req, waited)
		}
	}
	// Every run gets its scratch directory, its working directory when it
	// was given no cwd, and where a confined script's HOME and TMPDIR
	// point in any case.
	// A run given a cwd goes on without one when none can be made (a
	// read-only state directory): a confined runner then makes its own.
	scratch, err := r.work.NewScratch()
	switch {
	case err != nil && req.Dir == "":
		end()
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	case err != nil:
		r.log.Debug("no scratch directory for a run with a cwd", "file", req.File, "error", err)
	default:
		ends = append(ends, func() {
			if err := scratch.Remove(); err != nil {
				r.log.Warn("removing a run's scratch directory", "file", req.File, "error", err)
			}
		})
		req.Scratch = scratch.Dir()
		if req.Dir == "" {
			req.Dir = scratch.Dir()
		}
	}
	// The one check, as late as the core can make it, that the path an
	// interpreter gets still leads to the file opened confined (issue 16,
	// item 1): no runner makes it again.
	if err := stillAt(script, req.ScriptPath, req.File); err != nil {
		end()
		return core.RunResult{}, err
	}
	req.Script = script
	return r.call(ctx, runner, req, end)
}

// acquire takes a slot for req, waiting at most req.Timeout (no bound when
// zero) and while ctx lasts, and says how long it waited.
func (r *Runs) acquire(ctx context.Context, req core.RunRequest) (time.Duration, error) {
	select {
	case r.slots <- struct{}{}:
		return 0, nil
	default:
	}
	r.log.Debug("script run waits for a slot", "file", req.File, "limit", cap(r.slots))
	began := time.Now()
	var expired <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case r.slots <- struct{}{}:
		return time.Since(began), nil
	case <-expired:
		return 0, r.atLimit(req, req.Timeout)
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return 0, r.atLimit(req, time.Since(began).Round(time.Millisecond))
		}
		return 0, fmt.Errorf("running %s: cancelled while waiting for a free slot: %w", req.File, ctx.Err())
	}
}

func (r *Runs) atLimit(req core.RunRequest, waited time.Duration) error {
	return fmt.Errorf("running %s: the server is at its limit of %d script(s) running at once (%s, which scripts.max_concurrent may lower) "+
		"and none ended within this run's timeout (%s); try again later: %w: %w",
		req.File, cap(r.slots), MaxConcurrentEnv, waited, core.ErrRunLimit, context.DeadlineExceeded)
}
