package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
	"github.com/skills-mcp/skills-mcp/internal/testnet"
)

// TestSilentRemoteTimesOut points a syncer at a remote that never answers
// (issue 16, item 5): before, Initialize and ForceRefresh never returned;
// now each fails after the timeout, with an error naming it, and a cached
// clone is still served.
func TestSilentRemoteTimesOut(t *testing.T) {
	t.Parallel()
	const timeout = 500 * time.Millisecond
	url := testnet.SilentRemote(t)

	t.Run("clone", func(t *testing.T) {
		f := newFixture(t)
		opts := f.options()
		opts.URL, opts.Timeout = url, timeout
		s := f.syncer(opts)
		start := time.Now()
		_, err := s.Initialize(t.Context())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Initialize = %v, want a timeout", err)
		}
		if took := time.Since(start); took > time.Minute { // not a speed check: before, it never returned
			t.Errorf("Initialize took %v with a %v timeout", took, timeout)
		}
		t.Logf("clone of a silent remote failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
	})

	t.Run("fetch into a cached clone", func(t *testing.T) {
		f := newFixture(t)
		f.initialized()
		// The cache now points at the silent remote.
		repo, err := git.PlainOpen(f.dir)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := repo.Config()
		cfg.Remotes["origin"].URLs = []string{url}
		if err := repo.SetConfig(cfg); err != nil {
			t.Fatal(err)
		}
		opts := f.options()
		opts.URL, opts.Timeout = url, timeout
		s := f.syncer(opts)
		res, err := s.Initialize(t.Context())
		if !errors.Is(err, gitsync.ErrUsingCache) || !errors.Is(err, context.DeadlineExceeded) || res.CommitHash == "" {
			t.Fatalf("Initialize = %+v, %v; want the cache served after a timeout", res, err)
		}
		start := time.Now()
		if _, err := s.ForceRefresh(t.Context()); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("ForceRefresh = %v, want a timeout", err)
		}
		t.Logf("refresh against a silent remote failed after %v", time.Since(start).Round(time.Millisecond))
	})
}
