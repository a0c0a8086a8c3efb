package keyword

import (
	"fmt"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// benchSizes are the corpus sizes of issue 9.
var benchSizes = []int{100, 1000, 10000}

// benchIndex plans the corpus of n skills and returns its entries and the
// contexts of the three outcomes.
func benchIndex(b *testing.B, n int) ([]core.MatchEntry, corpus.Contexts) {
	b.Helper()
	c, err := corpus.Plan(corpus.Options{Skills: n})
	if err != nil {
		b.Fatal(err)
	}
	entries := entriesOf(c)[:len(c.Skills)]
	s := New().Build(entries)
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(s.Search(ctx), core.DefaultConfig().Matching) })
	if err != nil {
		b.Fatal(err)
	}
	return entries, ctxs
}

// BenchmarkBuild times building the searcher of a snapshot.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			entries, _ := benchIndex(b, n)
			b.ReportAllocs()
			for b.Loop() {
				New().Build(entries)
			}
		})
	}
}

// BenchmarkSearch times Search for contexts of the three outcomes, and the
// plain algorithm (Score over every entry) for comparison.
func BenchmarkSearch(b *testing.B) {
	for _, n := range benchSizes {
		entries, ctxs := benchIndex(b, n)
		s := New().Build(entries)
		for _, kind := range []struct{ name, context string }{
			{"single", ctxs.Single}, {"ambiguous", ctxs.Ambiguous}, {"no-match", ctxs.NoMatch},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s.Search(kind.context)
				}
			})
			b.Run(fmt.Sprintf("skills=%d/%s-plain", n, kind.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					plainSearch(entries, kind.context)
				}
			})
		}
	}
}

// BenchmarkSearchRank times what get_skill runs: core.SearchRank with the
// default matching settings, which goes through SearchTop, and for comparison
// core.Rank of the full Search answer.
func BenchmarkSearchRank(b *testing.B) {
	cfg := core.DefaultConfig().Matching
	for _, n := range benchSizes {
		entries, ctxs := benchIndex(b, n)
		s := New().Build(entries)
		for _, kind := range []struct{ name, context string }{
			{"single", ctxs.Single}, {"ambiguous", ctxs.Ambiguous}, {"no-match", ctxs.NoMatch},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					core.SearchRank(s, kind.context, cfg)
				}
			})
			b.Run(fmt.Sprintf("skills=%d/%s-rank-of-search", n, kind.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					core.Rank(s.Search(kind.context), cfg)
				}
			})
		}
	}
}

// BenchmarkSearchParallel times Search from GOMAXPROCS goroutines at once.
func BenchmarkSearchParallel(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			entries, ctxs := benchIndex(b, n)
			s := New().Build(entries)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					s.Search(ctxs.Single)
				}
			})
		})
	}
}
