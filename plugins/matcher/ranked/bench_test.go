package ranked_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// entriesOf is what internal/index hands the matcher for a generated corpus.
func entriesOf(c *corpus.Corpus) []core.MatchEntry {
	out := make([]core.MatchEntry, 0, len(c.Skills))
	for _, s := range c.Skills {
		out = append(out, core.MatchEntry{Path: s.Path, Keywords: s.Keywords, Priority: float64(s.Priority), Name: s.Name, Description: s.Description})
	}
	return out
}

// BenchmarkBuildAndSearch times Build and SearchRank (what get_skill asks of
// the matcher) on the generated corpora of issue 9.
func BenchmarkBuildAndSearch(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		c, err := corpus.Plan(corpus.Options{Skills: n})
		if err != nil {
			b.Fatal(err)
		}
		entries := entriesOf(c)
		b.Run(fmt.Sprintf("skills=%d/build", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ranked.New().Build(entries)
			}
		})
		s := ranked.New().Build(entries)
		cfg := config.Default().Matching.Rank()
		for _, ctx := range []string{corpus.ContextFor(&c.Skills[n/2]), "add a login form with validation to the react app and deploy it"} {
			b.Run(fmt.Sprintf("skills=%d/search-%d-words", n, len(ranked.Tokenize(ctx))), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					core.SearchRank(s, ctx, cfg)
				}
			})
		}
	}
}

// BenchmarkSearchTop times SearchTop for the first 10 matches (what
// skills_search asks of the matcher) at 10,000 skills: a context of one
// skill, which matches thousands through its common words, and a task.
func BenchmarkSearchTop(b *testing.B) {
	c, err := corpus.Plan(corpus.Options{Skills: 10000})
	if err != nil {
		b.Fatal(err)
	}
	s := ranked.New().Build(entriesOf(c)).(core.TopSearcher)
	for name, ctx := range map[string]string{"skill": corpus.ContextFor(&c.Skills[5000]), "task": "add a login form with validation to the react app and deploy it"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.SearchTop(ctx, math.Inf(-1), 10)
			}
		})
	}
}
