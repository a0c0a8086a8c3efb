package hybrid_test

import (
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, ctxFor := range map[string]func(core.MatchEntry) string{
		"ByDescription": func(e core.MatchEntry) string { return e.Description },
		"ByName":        func(e core.MatchEntry) string { return e.Name },
	} {
		t.Run(name, func(t *testing.T) {
			matchertest.Run(t, matchertest.Fixtures{
				New: func() core.Matcher {
					m, _ := newHybrid(t, f, nil)
					return m
				},
				ContextFor: ctxFor,
			})
		})
	}
	// The suite's corpus is smaller than the least the similarity is used
	// for; the same checks over a corpus where it is:
	t.Run("Corpus20", func(t *testing.T) {
		t.Parallel()
		m, _ := newHybrid(t, f, nil)
		checkWellFormed(t, m.Build(corpus()))
	})
}

// checkWellFormed runs the suite's checks of an answer (known paths, each
// once, finite scores, sorted) and of concurrent use over s, with requests
// the similarity takes part in.
func checkWellFormed(t *testing.T, s core.Searcher) {
	t.Helper()
	known := map[string]bool{}
	for _, e := range corpus() {
		known[e.Path] = true
	}
	queries := []string{"why is our monthly bill so large", "erase personal data", "deploy", "react login", "",
		"\xff\xfe budget \xc3", strings.Repeat("invoice ", 1<<14), "ＢＩＬＬ"}
	want := make([][]core.Match, len(queries))
	for i, q := range queries {
		got := s.Search(q)
		want[i] = got
		seen := map[string]bool{}
		for j, m := range got {
			if !known[m.Path] || seen[m.Path] || math.IsNaN(m.Score) || math.IsInf(m.Score, 0) {
				t.Errorf("Search(%.30q): match %d %q (%v) is unknown, repeated or not finite", q, j, m.Path, m.Score)
			}
			seen[m.Path] = true
			if j > 0 && (got[j-1].Score < m.Score || got[j-1].Score == m.Score && got[j-1].Path > m.Path) {
				t.Errorf("Search(%.30q): %v not sorted by score, then path", q, got)
			}
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i, q := range queries {
				if got := s.Search(q); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("concurrent Search(%.30q) = %v, want %v", q, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}
