package skillscmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	gitsync "github.com/skills-mcp/skills-mcp/internal/gitsync" // syncs in the helper skills-mcp-git (issue 19)
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// gitSource is the content repo of git mode (spec 000 §3.1, §9).
type gitSource struct {
	syncer *gitsync.Syncer
	dir    string // the clone: config.yaml at its root, skills in skills/
	// pending, when not nil, is closed when a first sync that outlived the
	// start wait ends; the server serves the cache (or nothing) until then.
	pending <-chan struct{}
	// ref and branch are SKILLS_REF and the branch followed without one.
	ref, branch string
}

// gitStartWait is how long serve waits for the first sync before it serves
// the cached clone (or no skills) and lets the sync go on in the background:
// an MCP client gives up on a server that does not answer initialize.
const gitStartWait = 3 * time.Second

// openGit clones or updates the content repo at url. Network down with a cached
// clone is a warning (the cache is served); with no clone it is an error. With
// wait > 0 (serve) a sync still running after wait goes on in the background:
// the cache, or an empty set, is served with a warning, and the index is
// rebuilt when the sync ends. Every network step is bounded by
// SKILLS_GIT_TIMEOUT_SECONDS (else the default; config.yaml's
// refresh.git_timeout_seconds applies once it is read). Each helper is
// registered in procs while it runs.
func openGit(ctx context.Context, url string, getenv func(string) string, stateDir string, wait time.Duration, log hclog.Logger, procs *launch.Processes) (*gitSource, error) {
	dir := getenv("SKILLS_CACHE_DIR")
	if dir == "" {
		dir = filepath.Join(stateDir, "content")
	}
	timeout := gitsync.DefaultTimeout
	if v := getenv(config.EnvGitTimeout); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, usagef("%s=%q: want a whole number of seconds, at least 1", config.EnvGitTimeout, v)
		}
		timeout = time.Duration(n) * time.Second
	}
	ref, branch := strings.TrimSpace(getenv(envRef)), getenv("SKILLS_BRANCH")
	logPin(log, ref, branch)
	syncer, err := gitsync.New(gitsync.Options{Source: gitsync.Source{
		URL: url, Branch: branch, Ref: ref, Token: getenv("GITHUB_TOKEN"),
		Verify: getenv(envVerify), AllowedSigners: getenv(envAllowedSigners),
		Dir: dir, StateDir: stateDir, Timeout: timeout,
	}, Logger: log, Processes: procs})
	if err != nil {
		return nil, usagef("git mode: %w", err)
	}
	if err := verifyCache(ctx, syncer, log); err != nil {
		return nil, err
	}
	type outcome struct {
		res gitsync.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := syncer.Initialize(ctx)
		done <- outcome{res, err}
	}()
	var expired <-chan time.Time
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case o := <-done:
		g, err := gitOpened(syncer, dir, o.res, o.err, log)
		if g != nil {
			g.ref, g.branch = ref, branch
		}
		return g, err
	case <-expired:
	}
	log.Warn("the content repo has not answered yet; serving the cached copy (or no skills) while the sync goes on in the background",
		"waited", wait, "git_timeout", timeout, "cached", syncer.Head() != "" || hasEntries(dir))
	pending := make(chan struct{})
	go func() {
		defer close(pending)
		o := <-done
		switch {
		case errors.Is(o.err, gitsync.ErrUnverified), errors.Is(o.err, gitsync.ErrRefused):
			// the helper logged the commit, its signer and the reason
		case errors.Is(o.err, gitsync.ErrRefNotFound):
			log.Error("SKILLS_REF names nothing on the remote; the cached copy (or nothing) stays served", "error", o.err)
		case errors.Is(o.err, gitsync.ErrUsingCache):
			log.Warn("content repo unreachable; serving the cached copy", "commit", o.res.CommitHash, "error", o.err)
		case o.err != nil:
			log.Error("the first sync of the content repo failed; no skills are served until a refresh succeeds", "error", o.err)
		default:
			log.Info("content repo synced in the background", "commit", o.res.CommitHash)
		}
	}()
	return &gitSource{syncer: syncer, dir: dir, pending: pending, ref: ref, branch: branch}, nil
}

// gitOpened maps the first sync's outcome to the source or the start error.
func gitOpened(syncer *gitsync.Syncer, dir string, res gitsync.Result, err error, log hclog.Logger) (*gitSource, error) {
	switch {
	case errors.Is(err, gitsync.ErrUnverified), errors.Is(err, gitsync.ErrRefused):
		// Served: the last verified commit, or nothing; the helper logged the
		// commit refused, its signer and the reason.
	case errors.Is(err, gitsync.ErrRefNotFound):
		// A wrong pin is a configuration error even with a cache: serving the
		// cache would hide that the fleet is not at the pin.
		return nil, usagef("git mode: %w", err)
	case errors.Is(err, gitsync.ErrUsingCache):
		log.Warn("content repo unreachable; serving the cached copy", "commit", res.CommitHash, "error", err)
	case errors.Is(err, gitsync.ErrForeignDir), errors.Is(err, gitsync.ErrBranchNotFound):
		return nil, usagef("git mode: %w", err)
	case err != nil:
		return nil, usagef("git mode: no cached copy and the content repo cannot be reached: %w", err)
	}
	return &gitSource{syncer: syncer, dir: dir}, nil
}

// hasEntries reports whether dir exists and is not empty.
func hasEntries(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}

// skillsDir is where the skills live inside the clone.
func (g *gitSource) skillsDir() string { return filepath.Join(g.dir, "skills") }

// gitSyncer adapts the syncer to what refresh_skills needs. A refresh also
// ends with base, the server's life: a refresh hanging on the remote must not
// hold the process after SIGTERM (the go-sdk waits for handlers in flight).
type gitSyncer struct {
	s    *gitsync.Syncer
	base context.Context
}

func (g gitSyncer) ForceRefresh(ctx context.Context) (server.SyncStatus, error) {
	if g.base != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(g.base, cancel)()
	}
	ctx, span := telemetry.Start(ctx, telemetry.SpanGitSync)
	res, err := g.s.ForceRefresh(ctx)
	if span.IsRecording() {
		span.SetAttributes(telemetry.AttrCommit.String(res.CommitHash))
	}
	telemetry.End(span, err)
	st := g.Status() // the commit served when the sync names none, and the last sync
	st.Success, st.FilesChanged = res.Success, res.FilesChanged
	if res.CommitHash != "" {
		st.CommitHash = res.CommitHash
	}
	st.Verified, st.Refused = verificationStatus(g.s, res)
	return st, err
}

// Status is the commit served and the last sync, without syncing
// (server.StatusReporter: refresh_skills' answer while git still works).
func (g gitSyncer) Status() server.SyncStatus {
	st := server.SyncStatus{CommitHash: g.s.Head()}
	if last := g.s.LastSync(); !last.IsZero() {
		st.LastSync = core.FormatTimestamp(last)
	}
	return st
}
