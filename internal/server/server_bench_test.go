package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// benchSizes are the corpus sizes of issue 9.
var benchSizes = []int{100, 1000, 10000}

// benchServer is a server over the cached corpus of n skills, its corpus and
// the get_skill contexts of the three outcomes.
type benchServer struct {
	srv  *Server
	c    *corpus.Corpus
	ctxs corpus.Contexts
}

// benchServers caches a server per corpus size and matcher for the whole process.
var benchServers sync.Map // benchKey → *benchServer

type benchKey struct {
	n      int
	ranked bool
}

func newBenchServer(b testing.TB, n int) *benchServer { return newBenchServerWith(b, n, false) }

// newBenchServerWith is newBenchServer with the ranked matcher when ranked is set.
func newBenchServerWith(b testing.TB, n int, ranked bool) *benchServer {
	b.Helper()
	if bs, ok := benchServers.Load(benchKey{n, ranked}); ok {
		return bs.(*benchServer)
	}
	c, dir, err := corpus.Cached("", corpus.Options{Skills: n})
	if err != nil {
		b.Fatal(err)
	}
	var m core.Matcher = keyword.New()
	if ranked {
		m = rankedmatcher.New()
	}
	idx := index.New(index.Options{Root: dir, Matcher: m})
	snap, err := idx.Rebuild(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(snap.Searcher().Search(ctx), cfg.Matching.Rank()) })
	if err != nil {
		b.Fatal(err)
	}
	bs := &benchServer{srv: New(Options{Index: idx, Config: cfg}), c: c, ctxs: ctxs}
	benchServers.Store(benchKey{n, ranked}, bs)
	return bs
}

// loopTool calls tool with args in b.Loop through srv's whole tools/call
// path (toolCaller: middleware, the go-sdk's checks and encoding, the
// handler), fails on a tool error, and reports the p50 and p99 of the calls
// beside the mean.
func loopTool(b *testing.B, srv *Server, tool string, args map[string]any) {
	b.Helper()
	c := callerFor(b, srv)
	raw, err := json.Marshal(args)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var times []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		res, err := c.call(ctx, tool, raw)
		times = append(times, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("got error %v, result %+v", err, res)
		}
	}
	reportPercentiles(b, times)
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(times[(len(times)*99)/100].Nanoseconds()), "p99-ns")
}

// BenchmarkGetSkillHandler times the get_skill handler alone (arguments
// decoded, search, rank, content, assets, JSON result): the server side of a
// call without the protocol.
func BenchmarkGetSkillHandler(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServer(b, n)
		for _, kind := range []struct{ name, context string }{
			{"single", bs.ctxs.Single}, {"ambiguous", bs.ctxs.Ambiguous}, {"no-match", bs.ctxs.NoMatch},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				loopTool(b, bs.srv, "get_skill", map[string]any{"context": kind.context})
			})
		}
	}
}

// BenchmarkGetSkillHandlerRanked is BenchmarkGetSkillHandler with the ranked
// matcher (issue 14: ≤ 100 µs p50 at 10,000 skills), on the corpus's picked
// contexts and on a task description as users write one.
func BenchmarkGetSkillHandlerRanked(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		for _, kind := range []struct{ name, context string }{
			{"single", bs.ctxs.Single}, {"ambiguous", bs.ctxs.Ambiguous}, {"no-match", bs.ctxs.NoMatch},
			{"task", "add a login form with validation to the react app and deploy it"},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				loopTool(b, bs.srv, "get_skill", map[string]any{"context": kind.context})
			})
		}
	}
}

// BenchmarkGetSkillSession times get_skill through a go-sdk client session on
// the in-memory transport: handler plus JSON-RPC on both sides.
func BenchmarkGetSkillSession(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServer(b, n)
			ctx := context.Background()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := bs.srv.MCP().Connect(ctx, st, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": bs.ctxs.Single}}
			var times []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				start := time.Now()
				res, err := cs.CallTool(ctx, params)
				times = append(times, time.Since(start))
				if err != nil || res.IsError {
					b.Fatalf("got error %v, result %+v", err, res)
				}
			}
			reportPercentiles(b, times)
		})
	}
}

// BenchmarkListSkillsHandler times list_skills of the whole tree, JSON included.
func BenchmarkListSkillsHandler(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServer(b, n)
			loopTool(b, bs.srv, "list_skills", map[string]any{})
		})
	}
}

// BenchmarkGetAssetHandler times get_asset of a declared text asset.
func BenchmarkGetAssetHandler(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServer(b, n)
			path, file := "", ""
			for _, s := range bs.c.Skills[len(bs.c.Skills)/2:] {
				if s.Format == corpus.FormatTree && len(s.Assets) > 0 {
					path, file = s.Path, s.Assets[0]
					break
				}
			}
			loopTool(b, bs.srv, "get_asset", map[string]any{"skill_path": path, "file": file})
		})
	}
}

// BenchmarkRefreshSkillsHandler times refresh_skills in local mode: a full
// reindex and the refresh of the tool descriptions.
func BenchmarkRefreshSkillsHandler(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServer(b, n)
			loopTool(b, bs.srv, "refresh_skills", map[string]any{})
		})
	}
}
