package keyword

import (
	"fmt"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
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
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(s.Search(ctx), config.Default().Matching.Rank()) })
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

// benchVariant is one way of answering a context, benchmarked by
// benchOutcomes under the name suffix.
type benchVariant struct {
	suffix string
	answer func(s *searcher, entries []core.MatchEntry, context string)
}

// benchOutcomes benchmarks every variant on the contexts of the three
// outcomes, at every corpus size: skills=N/OUTCOME+SUFFIX.
func benchOutcomes(b *testing.B, variants ...benchVariant) {
	for _, n := range benchSizes {
		entries, ctxs := benchIndex(b, n)
		s := New().Build(entries).(*searcher)
		for _, kind := range []struct{ name, context string }{
			{"single", ctxs.Single}, {"ambiguous", ctxs.Ambiguous}, {"no-match", ctxs.NoMatch},
		} {
			for _, v := range variants {
				b.Run(fmt.Sprintf("skills=%d/%s%s", n, kind.name, v.suffix), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						v.answer(s, entries, kind.context)
					}
				})
			}
		}
	}
}

// BenchmarkSearch times Search for contexts of the three outcomes, and the
// plain algorithm (referenceScore over every entry) for comparison.
func BenchmarkSearch(b *testing.B) {
	benchOutcomes(b,
		benchVariant{"", func(s *searcher, _ []core.MatchEntry, context string) { s.Search(context) }},
		benchVariant{"-plain", func(_ *searcher, entries []core.MatchEntry, context string) { plainSearch(entries, context) }})
}

// BenchmarkSearchRank times what get_skill runs: core.SearchRank with the
// default matching settings, which goes through SearchTop, and for comparison
// core.Rank of the full Search answer.
func BenchmarkSearchRank(b *testing.B) {
	cfg := config.Default().Matching.Rank()
	benchOutcomes(b,
		benchVariant{"", func(s *searcher, _ []core.MatchEntry, context string) { core.SearchRank(s, context, cfg) }},
		benchVariant{"-rank-of-search", func(s *searcher, _ []core.MatchEntry, context string) { core.Rank(s.Search(context), cfg) }})
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
