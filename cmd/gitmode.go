package skillscmd

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/gitsync"
	"github.com/skills-mcp/skills-mcp/core/server"
)

// gitSource is the content repo of git mode (spec 000 §3.1, §9).
type gitSource struct {
	syncer *gitsync.Syncer
	dir    string // the clone: config.yaml at its root, skills in skills/
}

// openGit clones or updates the content repo at url. Network down with a cached
// clone is a warning (the cache is served); with no clone it is an error.
func openGit(ctx context.Context, url string, getenv func(string) string, stateDir string, log hclog.Logger) (*gitSource, error) {
	dir := getenv("SKILLS_CACHE_DIR")
	if dir == "" {
		dir = filepath.Join(stateDir, "content")
	}
	syncer, err := gitsync.New(gitsync.Options{
		URL: url, Branch: getenv("SKILLS_BRANCH"), Token: getenv("GITHUB_TOKEN"),
		Dir: dir, StateDir: stateDir, Logger: log,
	})
	if err != nil {
		return nil, usagef("git mode: %w", err)
	}
	res, err := syncer.Initialize(ctx)
	switch {
	case errors.Is(err, gitsync.ErrUsingCache):
		log.Warn("content repo unreachable; serving the cached copy", "commit", res.CommitHash)
	case errors.Is(err, gitsync.ErrForeignDir):
		return nil, usagef("git mode: %w", err)
	case err != nil:
		return nil, usagef("git mode: no cached copy and the content repo cannot be reached: %w", err)
	}
	return &gitSource{syncer: syncer, dir: dir}, nil
}

// skillsDir is where the skills live inside the clone.
func (g *gitSource) skillsDir() string { return filepath.Join(g.dir, "skills") }

// gitSyncer adapts the syncer to what refresh_skills needs.
type gitSyncer struct{ s *gitsync.Syncer }

func (g gitSyncer) ForceRefresh(ctx context.Context) (server.SyncStatus, error) {
	res, err := g.s.ForceRefresh(ctx)
	st := server.SyncStatus{Success: res.Success, CommitHash: res.CommitHash, FilesChanged: res.FilesChanged}
	if last := g.s.LastSync(); !last.IsZero() {
		st.LastSync = core.FormatTimestamp(last)
	}
	if st.CommitHash == "" {
		st.CommitHash = g.s.Head()
	}
	return st, err
}
