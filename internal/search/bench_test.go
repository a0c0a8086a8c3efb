package search

import (
	"context"
	"fmt"
	"runtime"
	"testing"
)

// benchSizes are the corpus sizes of the benchmarks, internal/server's.
var benchSizes = []int{100, 1000, 10000}

// BenchmarkSearchIndexBuild times building skills_search's index of a
// snapshot (once per snapshot, on its first search or in the background
// after a reload) and reports the live heap it holds once built.
func BenchmarkSearchIndexBuild(b *testing.B) {
	for _, n := range benchSizes {
		snap := newCorpusSnapshot(b, n).snap
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			buildWordIndex(snap) // the files in the page cache before measuring
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ix := buildWordIndex(snap)
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(ix)
			b.ReportAllocs()
			for b.Loop() {
				buildWordIndex(snap)
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
	cs := newCorpusSnapshot(b, 10000)
	ix := buildWordIndex(cs.snap)
	for _, kind := range []struct{ name, query string }{
		{"single", cs.ctxs.Single}, {"task", "add a login form with validation to the react app and deploy it"},
	} {
		tokens := Tokens(kind.query)
		shown, _, err := ix.hits(context.Background(), kind.query, tokens, 10)
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
