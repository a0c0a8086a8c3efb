package search

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// corpusSnapshot is a snapshot of a generated corpus of n skills (cached
// on disk across runs) with the ranked matcher, and the contexts the
// benchmarks query, picked as internal/server's benchmarks pick them.
type corpusSnapshot struct {
	snap *index.Snapshot
	ctxs corpus.Contexts
}

var corpusSnapshots sync.Map // n → *corpusSnapshot

func newCorpusSnapshot(tb testing.TB, n int) *corpusSnapshot {
	tb.Helper()
	if cs, ok := corpusSnapshots.Load(n); ok {
		return cs.(*corpusSnapshot)
	}
	c, dir, err := corpus.Cached("", corpus.Options{Skills: n})
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := index.New(index.Options{Root: dir, Matcher: rankedmatcher.New()}).Rebuild(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	cfg := config.Default()
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(snap.Searcher().Search(ctx), cfg.Matching.Rank()) })
	if err != nil {
		tb.Fatal(err)
	}
	cs := &corpusSnapshot{snap: snap, ctxs: ctxs}
	corpusSnapshots.Store(n, cs)
	return cs
}
