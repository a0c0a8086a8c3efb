package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// MaxConcurrentEnv names the operator's bound of script runs at once.
const MaxConcurrentEnv = "SKILLS_SCRIPTS_MAX_CONCURRENT"

// Runs is the path every script run takes once PrepareRun has passed it,
// whatever its runner (issue 26, items 1 and 7): it waits for one of a
// bounded number of slots, gives a run without a cwd a fresh scratch
// directory, runs, and removes the scratch directory. run_script and the
// CLI's `run` both go through it. It is safe for concurrent use.
type Runs struct {
	slots chan struct{}
	work  *sandbox.WorkDirs
	log   hclog.Logger
}

// NewRuns returns the run path: at most maxConcurrent runs at once
// (core.DefaultMaxConcurrentRuns() when 0 or less), working directories
// decided by work (nil: scratch directories only, under os.TempDir()),
// logging to log (nil: nowhere).
func NewRuns(maxConcurrent int, work *sandbox.WorkDirs, log hclog.Logger) *Runs {
	if maxConcurrent <= 0 {
		maxConcurrent = core.DefaultMaxConcurrentRuns()
	}
	if log == nil {
		log = hclog.NewNullLogger()
	}
	return &Runs{slots: make(chan struct{}, maxConcurrent), work: work, log: log}
}

// Limit is the bound of runs at once.
func (r *Runs) Limit() int { return cap(r.slots) }

// Run runs p. When Limit runs are going on, it waits for one to end, within
// p's own timeout (the wait counts against it: the script gets what is
// left) and ctx; past it, the error wraps core.ErrRunLimit and
// context.DeadlineExceeded and names MaxConcurrentEnv. Every run gets a
// fresh scratch directory (req.Scratch), removed once the runner has
// returned (its processes are gone by then); a run without a working
// directory works there.
func (r *Runs) Run(ctx context.Context, p PreparedRun) (core.RunResult, error) {
	req := p.Request
	waited, err := r.acquire(ctx, req)
	if err != nil {
		return core.RunResult{}, err
	}
	defer func() { <-r.slots }()
	if req.Timeout > 0 {
		if req.Timeout -= waited; req.Timeout <= 0 { // a slot freed just as the wait ran out: zero would mean no limit
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
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	case err != nil:
		r.log.Debug("no scratch directory for a run with a cwd", "file", req.File, "error", err)
	default:
		defer func() {
			if err := scratch.Remove(); err != nil {
				r.log.Warn("removing a run's scratch directory", "file", req.File, "error", err)
			}
		}()
		req.Scratch = scratch.Dir()
		if req.Dir == "" {
			req.Dir = scratch.Dir()
		}
	}
	return p.Runner.Run(ctx, req)
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
