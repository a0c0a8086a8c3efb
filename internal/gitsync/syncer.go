package gitsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// Options configure a Syncer; the helper (internal/gitsync/engine) checks them.
type Options struct {
	// Source is the content repo and how to sync it.
	Source
	// Logger receives the helper's warnings and progress; nil discards them.
	Logger hclog.Logger
	// Helper is the helper's path; empty means next to the running
	// executable, else on PATH.
	Helper string
	// Processes is the server's table of runs and helpers, in which every
	// helper is registered while it runs (childproc.Start); nil registers
	// nothing.
	Processes *launch.Processes
}

// HelperMargin is what the server allows a sync beyond the git timeout (the
// work after the network step: resetting the worktree, counting the changed
// files) before it asks the helper to stop; childproc.StopGrace later the
// helper and everything it started are killed (issue 26, item 8).
const HelperMargin = 5 * time.Second

// Syncer keeps the content repo in sync through the helper. It is safe for
// concurrent use.
type Syncer struct {
	opts    Options
	log     hclog.Logger
	timeout atomic.Int64 // nanoseconds

	// margin and grace are HelperMargin and childproc.StopGrace; tests
	// shorten them.
	margin, grace time.Duration

	mu sync.Mutex // one sync at a time

	stateMu  sync.RWMutex
	head     string
	lastSync time.Time

	listeners listeners
	periodic  periodic

	prov provenance // what the last syncs said of the served commit
}

// New finds the helper and has it check opts (an empty URL or directory, an
// invalid branch, a state directory inside the clone: errors wrapping
// core.ErrInvalidArgument), without touching the network. A helper of
// another build than this server's is refused, here and at every later
// operation, with an error wrapping childproc.ErrMismatch that names both
// builds and the helper's path.
func New(opts Options) (*Syncer, error) {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.Helper == "" {
		p, err := childproc.Find(HelperName)
		if err != nil {
			return nil, fmt.Errorf("creating git sync: %w", err)
		}
		opts.Helper = p
	}
	s := &Syncer{opts: opts, log: opts.Logger, margin: HelperMargin, grace: childproc.StopGrace}
	s.SetTimeout(opts.Timeout)
	if _, err := s.call(context.Background(), OpCheck); err != nil {
		return nil, err
	}
	return s, nil
}

// SetTimeout changes the bound of each network operation from the next one
// on; zero or less means DefaultTimeout.
func (s *Syncer) SetTimeout(d time.Duration) {
	if d <= 0 {
		d = DefaultTimeout
	}
	s.timeout.Store(int64(d))
}

// call runs op in the helper and records HEAD and the last sync time it
// reports, once the helper's Hello says it is of this server's build. The server bounds the helper itself: at the git timeout plus
// s.margin it is asked to stop, s.grace later it is killed, whatever it does.
func (s *Syncer) call(ctx context.Context, op string) (Result, error) {
	timeout := time.Duration(s.timeout.Load())
	hello := childproc.NewHello(Protocol)
	req := Request{Hello: &hello, Op: op, Source: s.opts.Source, LogLevel: childproc.Level(s.log)}
	req.Timeout = timeout
	var resp Response
	err := childproc.Call(ctx, s.opts.Helper, req, &resp, childproc.Options{
		Env: helperEnv(os.Environ()), Log: s.log, Deadline: timeout + s.margin, Grace: s.grace,
		Processes: s.opts.Processes,
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return Result{}, fmt.Errorf("syncing the skills repository: %w (the git timeout, refresh.git_timeout_seconds, is %s; the helper gets %s more for the work after the network step)", err, timeout, s.margin)
		}
		return Result{}, fmt.Errorf("syncing the skills repository: %w", err)
	}
	if err := childproc.CheckHelper(HelperName, s.opts.Helper, hello, resp.Hello); err != nil {
		return Result{}, err
	}
	if op != OpCheck {
		s.stateMu.Lock()
		if resp.Head != "" {
			s.head = resp.Head
		}
		if resp.LastSync.After(s.lastSync) {
			s.lastSync = resp.LastSync
		}
		if resp.Result.LastSync.IsZero() {
			resp.Result.LastSync = s.lastSync
		}
		s.stateMu.Unlock()
		s.prov.record(op, resp.Result, resp.Fault != nil)
	}
	return resp.Result, resp.Fault.Err(kinds)
}

// secretEnv are the variables the helper does not inherit: the token comes on
// its stdin, the URL (which may carry credentials) too.
var secretEnv = []string{"GITHUB_TOKEN", "SKILLS_HTTP_TOKEN", "SKILLS_REPO"}

// helperEnv is the server's environment without secretEnv: git credential
// helpers, HOME, SSH_AUTH_SOCK and proxies live there.
func helperEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(secretEnv, name) {
			out = append(out, kv)
		}
	}
	return out
}

// Initialize has the helper clone the repository into Dir, or open the
// existing clone, then sync it. With a clone in place and the remote
// unreachable it returns an error wrapping ErrUsingCache.
func (s *Syncer) Initialize(ctx context.Context) (Result, error) {
	s.mu.Lock()
	res, err := s.call(ctx, OpInitialize)
	s.mu.Unlock()
	if res.Updated {
		s.listeners.notify(res)
	}
	return res, err
}

// ForceRefresh fetches and hard-resets to the remote head now. A refresh
// already running makes it return core.ErrRefreshInProgress at once.
func (s *Syncer) ForceRefresh(ctx context.Context) (Result, error) {
	if !s.mu.TryLock() {
		return Result{Success: false}, core.ErrRefreshInProgress
	}
	res, err := s.call(ctx, OpRefresh)
	s.mu.Unlock()
	if res.Updated {
		s.listeners.notify(res)
	}
	return res, err
}

// OnUpdate registers fn, called after every sync that moved HEAD (the
// "content-updated" event), in the goroutine that ran the sync.
func (s *Syncer) OnUpdate(fn func(Result)) { s.listeners.add(fn) }

// LastSync returns the time of the last successful sync, zero if none is known.
func (s *Syncer) LastSync() time.Time {
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	return s.lastSync
}

// Head returns the full hex hash of the local HEAD, "" before the first sync.
func (s *Syncer) Head() string {
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	return s.head
}

// StartPeriodic refreshes every interval until ctx ends or Stop is called. A
// tick that finds a refresh running is skipped.
func (s *Syncer) StartPeriodic(ctx context.Context, interval time.Duration) {
	s.periodic.start(ctx, interval, s.log, func(ctx context.Context) error {
		_, err := s.ForceRefresh(ctx)
		return err
	})
}

// Stop ends the periodic refresh and waits for it (a sync in flight is cancelled).
func (s *Syncer) Stop() { s.periodic.end() }
