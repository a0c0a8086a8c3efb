package otelsetup_test

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// corpusServer is a real server over a generated corpus and a context that
// selects one skill.
type corpusServer struct {
	idx    *index.Index
	cfg    config.Config
	single string
}

var corpora sync.Map // skills count → *corpusServer

func loadCorpus(tb testing.TB, n int) *corpusServer {
	tb.Helper()
	if cs, ok := corpora.Load(n); ok {
		return cs.(*corpusServer)
	}
	c, dir, err := corpus.Cached("", corpus.Options{Skills: n})
	if err != nil {
		tb.Fatal(err)
	}
	idx := index.New(index.Options{Root: dir, Matcher: keyword.New()})
	snap, err := idx.Rebuild(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	cfg := config.Default()
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(snap.Searcher().Search(ctx), cfg.Matching.Rank()) })
	if err != nil {
		tb.Fatal(err)
	}
	cs := &corpusServer{idx: idx, cfg: cfg, single: ctxs.Single}
	corpora.Store(n, cs)
	return cs
}

// connect serves a new server with middleware over the in-memory transport
// and returns a connected go-sdk client; both end with tb.
func (c *corpusServer) connect(tb testing.TB, middleware ...mcp.Middleware) *mcp.ClientSession {
	tb.Helper()
	srv := server.New(server.Options{Index: c.idx, Config: c.cfg, Middleware: middleware})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "telemetry-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}
