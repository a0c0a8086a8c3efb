package server

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkSkillsSearchHandlerRanked times the skills_search handler with the
// ranked matcher (issue 19: ≤ 100 µs p50 at 10,000 skills, no body read per
// query but the shown hits' excerpts): the word index is built before the
// timed calls, as the first search of a snapshot builds it.
func BenchmarkSkillsSearchHandlerRanked(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		bs.srv.searchIndexes.get(bs.srv.snapshot()) // built once per snapshot, before the timed calls
		for _, kind := range []struct{ name, query string }{
			{"single", bs.ctxs.Single}, {"no-match", bs.ctxs.NoMatch},
			{"task", "add a login form with validation to the react app and deploy it"},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				loopHandler(b, toolRequest(b, "skills_search", map[string]any{"query": kind.query}), bs.srv.handleSkillsSearch)
			})
		}
	}
}

// BenchmarkSkillToolHandlerRanked times the `skill` tool's handler loading the
// single-match skill by path.
func BenchmarkSkillToolHandlerRanked(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			loopHandler(b, toolRequest(b, "skill", map[string]any{"name": bs.ctxs.SinglePath}), bs.srv.handleSkill)
		})
	}
}

// BenchmarkSearchIndexBuild times building skills_search's index of a
// snapshot (once per snapshot, on its first search or in the background
// after a reload) and reports the live heap it holds once built.
func BenchmarkSearchIndexBuild(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		snap := bs.srv.snapshot()
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			buildSearchIndex(snap) // the files in the page cache before measuring
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ix := buildSearchIndex(snap)
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(ix)
			b.ReportAllocs()
			for b.Loop() {
				buildSearchIndex(snap)
			}
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "index-MB")
			b.ReportMetric(float64(ix.bodies.bytes())/1e6, "bodies-MB")
			b.ReportMetric(float64(ix.post.bytes())/1e6, "postings-MB")
		})
	}
}

// BenchmarkSearchShownHits times filling in the shown hits of a query (score,
// first token, excerpt) from the index at 10,000 skills, apart from the
// matcher and the result.
func BenchmarkSearchShownHits(b *testing.B) {
	bs := newBenchServerWith(b, 10000, true)
	ix := bs.srv.searchIndexes.get(bs.srv.snapshot())
	for _, kind := range []struct{ name, query string }{
		{"single", bs.ctxs.Single}, {"task", "add a login form with validation to the react app and deploy it"},
	} {
		tokens := strings.Fields(fold(kind.query))
		shown, _, err := ix.hits(context.Background(), kind.query, tokens, searchLimitDefault)
		if err != nil {
			b.Fatal(err)
		}
		_, sets, _ := ix.allTokens(context.Background(), tokens, getBitsets())
		b.Run(kind.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ex := newExcerpter(tokens, sets)
				for i := range shown {
					ex.hit(ix, &shown[i])
				}
				ex.free()
			}
		})
	}
}

// BenchmarkSkillsSearchStdio times skills_search (ranked, the single-match
// query) through the stdio transport, as BenchmarkGetSkillStdio does
// get_skill: the JSON-RPC layer and the encoding of the result included.
func BenchmarkSkillsSearchStdio(b *testing.B) {
	for _, n := range stdioBenchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServerWith(b, n, true)
			srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSk}})
			srv.searchIndexes.get(srv.snapshot()) // built once per snapshot, before the timed calls
			benchToolStdio(b, srv, "skills_search", map[string]any{"query": bs.ctxs.Single})
		})
	}
}
