package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// options configure a syncer.
type options struct {
	// Source is the content repo and how to sync it (gitsync.Source: the
	// settings of the server's request).
	gitsync.Source
	// Logger receives warnings and progress; nil discards them.
	Logger hclog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// syncer keeps Dir in sync with the remote branch. Its methods are safe for
// concurrent use.
type syncer struct {
	url      string // clone URL: userinfo removed, local paths absolute
	branch   string
	pin      *pin      // SKILLS_REF; nil follows branch
	verifier *verifier // SKILLS_VERIFY=signed; nil serves any commit
	dir      string
	stateDir string
	auth     transport.AuthMethod
	// credentials is the git credential helper fallback, nil when GITHUB_TOKEN
	// or URL credentials are set or the remote is not http(s).
	credentials *credentialHelper
	red         *redactor
	log         hclog.Logger
	now         func() time.Time
	timeout     atomic.Int64 // nanoseconds; see opContext

	// mu serialises every access to repo; ForceRefresh only TryLocks it.
	mu   sync.Mutex
	repo *git.Repository
	// beforeSync, when set by tests, runs with mu held at the start of a sync.
	beforeSync func()

	stateMu  sync.RWMutex
	head     plumbing.Hash
	lastSync time.Time
	signer   string // the allowed signer of head, when verified
}

// newSyncer validates opts and returns a syncer. It does no network I/O; the only
// file it reads is the allowed-signers file.
func newSyncer(opts options) (*syncer, error) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	red := newRedactor(opts.Token, opts.URL)
	raw := strings.TrimSpace(opts.URL)
	if raw == "" {
		return nil, fmt.Errorf("creating git sync: SKILLS_REPO is empty: %w", core.ErrInvalidArgument)
	}
	branch := opts.Branch
	if branch == "" {
		branch = gitsync.DefaultBranch
	}
	if err := plumbing.NewBranchReferenceName(branch).Validate(); err != nil || strings.HasPrefix(branch, "-") {
		return nil, fmt.Errorf("creating git sync: invalid branch name %q: %w", branch, core.ErrInvalidArgument)
	}
	p, err := parsePin(opts.Ref)
	if err != nil {
		return nil, fmt.Errorf("creating git sync: %w", err)
	}
	v, err := newVerifier(opts.Verify, opts.AllowedSigners)
	if err != nil {
		return nil, fmt.Errorf("creating git sync: %w", err)
	}
	if opts.Dir == "" {
		return nil, fmt.Errorf("creating git sync: content directory is empty: %w", core.ErrInvalidArgument)
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("creating git sync: resolving content directory %s: %w", opts.Dir, err)
	}
	stateDir := ""
	if opts.StateDir != "" {
		if stateDir, err = filepath.Abs(opts.StateDir); err != nil {
			return nil, fmt.Errorf("creating git sync: resolving state directory %s: %w", opts.StateDir, err)
		}
		if confine.Within(dir, stateDir) {
			return nil, fmt.Errorf("creating git sync: state directory %s is inside the content directory %s, which every sync resets: %w",
				stateDir, dir, core.ErrInvalidArgument)
		}
	}
	cloneURL, auth, err := remoteAccess(raw, opts.Token, log)
	if err != nil {
		return nil, fmt.Errorf("creating git sync: %w", red.wrap(err))
	}
	var credentials *credentialHelper
	if auth == nil {
		credentials = newCredentialHelper(cloneURL)
	}
	installFileTransport()
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s := &syncer{
		url: cloneURL, branch: branch, pin: p, verifier: v, dir: dir, stateDir: stateDir,
		auth: auth, credentials: credentials, red: red, log: log.Named("gitsync"), now: now,
	}
	s.SetTimeout(opts.Timeout)
	return s, nil
}

// SetTimeout changes the bound of each network operation from the next one
// on (config.yaml, read from the clone, may set it after the first sync);
// zero or less means gitsync.DefaultTimeout.
func (s *syncer) SetTimeout(d time.Duration) {
	if d <= 0 {
		d = gitsync.DefaultTimeout
	}
	s.timeout.Store(int64(d))
}

// opContext bounds one network operation by the configured timeout.
func (s *syncer) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, time.Duration(s.timeout.Load()))
}

// timeoutError names the bound when op failed because it ran out (a remote
// that stopped answering), keeping err in the chain.
func (s *syncer) timeoutError(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != context.DeadlineExceeded {
		return err
	}
	d := time.Duration(s.timeout.Load())
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the remote did not answer within %s (refresh.git_timeout_seconds): %w", d, err)
	}
	return fmt.Errorf("the remote did not answer within %s (refresh.git_timeout_seconds): %w: %w", d, context.DeadlineExceeded, err)
}

// LastSync returns the time of the last successful sync, zero if none is known.
func (s *syncer) LastSync() time.Time {
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	return s.lastSync
}

// Head returns the full hex hash of the local HEAD, "" before the first sync.
func (s *syncer) Head() string {
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	if s.head.IsZero() {
		return ""
	}
	return s.head.String()
}

func (s *syncer) setHead(h plumbing.Hash) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.head = h
}

func (s *syncer) setSynced(h plumbing.Hash, at time.Time) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.head, s.lastSync = h, at
}
