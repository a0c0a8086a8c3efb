package matchertest

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// Fixtures makes a matcher and the contexts that must find each skill.
type Fixtures struct {
	// New returns a fresh matcher.
	New func() core.Matcher
	// ContextFor returns a context for which e must be the first match among
	// Corpus() (for a keyword matcher its keywords, for a name matcher its name).
	ContextFor func(e core.MatchEntry) string
}

// Corpus is the skills the suite builds: distinct names, keywords and
// descriptions, one without keywords (an Agent Skills folder), priorities set.
func Corpus() []core.MatchEntry {
	return []core.MatchEntry{
		{Path: "api/rest", Name: "rest", Keywords: []string{"rest", "pagination", "endpoints"},
			Description: "Designing REST endpoints and their pagination", Priority: 1},
		{Path: "docs/release-notes", Name: "release-notes",
			Description: "Write release notes from merged pull requests"},
		{Path: "ops/deploy", Name: "deploy", Keywords: []string{"deployment", "kubernetes", "rollout"},
			Description: "Rolling out a service to the cluster"},
		{Path: "ui/react/auth", Name: "auth", Keywords: []string{"react", "authentication", "login"},
			Description: "Sign-in screens and session handling in React", Priority: 2},
		{Path: "ui/vue/forms", Name: "forms", Keywords: []string{"vue", "forms", "validation"},
			Description: "Form inputs and their validation in Vue"},
	}
}

// Run runs the whole suite against f as subtests of t.
func Run(t *testing.T, f Fixtures) {
	t.Run("FindsEachSkill", func(t *testing.T) { testFinds(t, f) })
	t.Run("Sorted", func(t *testing.T) { testSorted(t, f) })
	t.Run("NoMatch", func(t *testing.T) { testNoMatch(t, f) })
	t.Run("EntriesNotModifiedOrKept", func(t *testing.T) { testEntries(t, f) })
	t.Run("EmptyIndex", func(t *testing.T) { testEmptyIndex(t, f) })
	t.Run("Concurrency", func(t *testing.T) { testConcurrency(t, f) })
	t.Run("HostileInput", func(t *testing.T) { testHostile(t, f) })
	t.Run("TopSearcher", func(t *testing.T) { testTop(t, f) })
}

// contexts are every fixture context and a few mixed ones.
func contexts(f Fixtures) []string {
	var out []string
	for _, e := range Corpus() {
		out = append(out, f.ContextFor(e))
	}
	return append(out, "react login with rest pagination", "deploy", "auth", "ui/react/auth", "vue forms for release notes")
}

func testFinds(t *testing.T, f Fixtures) {
	s := f.New().Build(Corpus())
	for _, e := range Corpus() {
		ctx := f.ContextFor(e)
		got := s.Search(ctx)
		if len(got) == 0 || got[0].Path != e.Path {
			t.Errorf("Search(%q) = %v, want %s first", ctx, paths(got), e.Path)
		}
	}
}

func paths(ms []core.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Path
	}
	return out
}

// checkWellFormed reports what makes ms an invalid answer over entries.
func checkWellFormed(ms []core.Match, entries []core.MatchEntry) error {
	known := map[string]bool{}
	for _, e := range entries {
		known[e.Path] = true
	}
	seen := map[string]bool{}
	for i, m := range ms {
		switch {
		case !known[m.Path]:
			return fmt.Errorf("match %d names %q, which was not built", i, m.Path)
		case seen[m.Path]:
			return fmt.Errorf("%q matched twice", m.Path)
		case math.IsNaN(m.Score) || math.IsInf(m.Score, 0):
			return fmt.Errorf("%q has score %v, want a finite one", m.Path, m.Score)
		}
		seen[m.Path] = true
		if i > 0 {
			p := ms[i-1]
			if p.Score < m.Score || p.Score == m.Score && p.Path > m.Path {
				return fmt.Errorf("%s (%v) before %s (%v): want score descending, then path ascending", p.Path, p.Score, m.Path, m.Score)
			}
		}
	}
	return nil
}

func testSorted(t *testing.T, f Fixtures) {
	// Equal scores: two skills that differ only in path.
	entries := append(Corpus(),
		core.MatchEntry{Path: "b/twin", Name: "twin", Keywords: []string{"twin"}, Description: "twin"},
		core.MatchEntry{Path: "a/twin", Name: "twin", Keywords: []string{"twin"}, Description: "twin"})
	s := f.New().Build(entries)
	for _, ctx := range append(contexts(f), "twin") {
		if err := checkWellFormed(s.Search(ctx), entries); err != nil {
			t.Errorf("Search(%q): %v", ctx, err)
		}
	}
}

func testNoMatch(t *testing.T, f Fixtures) {
	s := f.New().Build(Corpus())
	for _, ctx := range []string{"", "   ", "\t\n", "zzqx vrrkt plomf"} {
		if got := s.Search(ctx); len(got) != 0 {
			t.Errorf("Search(%q) = %v, want no match", ctx, paths(got))
		}
	}
}

func testEntries(t *testing.T, f Fixtures) {
	entries := Corpus()
	before := Corpus()
	s := f.New().Build(entries)
	if !reflect.DeepEqual(entries, before) {
		t.Errorf("Build modified its entries:\n%+v\nwant\n%+v", entries, before)
	}
	want := map[string][]core.Match{}
	for _, ctx := range contexts(f) {
		want[ctx] = s.Search(ctx)
	}
	for i := range entries { // the caller reuses its slice
		entries[i].Path, entries[i].Name, entries[i].Description = "x/changed", "changed", "changed"
		for j := range entries[i].Keywords {
			entries[i].Keywords[j] = "changed"
		}
	}
	for ctx, w := range want {
		if got := s.Search(ctx); !reflect.DeepEqual(got, w) {
			t.Errorf("after the caller changed its entries, Search(%q) = %v, want %v: Build must not keep them", ctx, paths(got), paths(w))
		}
	}
}

func testEmptyIndex(t *testing.T, f Fixtures) {
	for _, entries := range [][]core.MatchEntry{nil, {}} {
		s := f.New().Build(entries)
		for _, ctx := range contexts(f) {
			if got := s.Search(ctx); len(got) != 0 {
				t.Errorf("empty index: Search(%q) = %v, want nothing", ctx, paths(got))
			}
		}
	}
}

func testConcurrency(t *testing.T, f Fixtures) {
	s := f.New().Build(Corpus())
	ctxs := contexts(f)
	want := make([][]core.Match, len(ctxs))
	for i, ctx := range ctxs {
		want[i] = s.Search(ctx)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(ctxs))
	for range 8 {
		wg.Go(func() {
			for i, ctx := range ctxs {
				if got := s.Search(ctx); !reflect.DeepEqual(got, want[i]) {
					errs <- fmt.Sprintf("concurrent Search(%q) = %v, want %v", ctx, paths(got), paths(want[i]))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func testHostile(t *testing.T, f Fixtures) {
	s := f.New().Build(Corpus())
	for _, ctx := range []string{
		"\xff\xfe react \xc3", "react\x00login", strings.Repeat("react login ", 1<<16), strings.Repeat("x", 1<<20),
		"ＲＥＡＣＴ ｌｏｇｉｎ", "../../etc/passwd", "ui/react/auth/",
	} {
		got := s.Search(ctx)
		if err := checkWellFormed(got, Corpus()); err != nil {
			t.Errorf("Search(%.40q…): %v", ctx, err)
		}
	}
}

func testTop(t *testing.T, f Fixtures) {
	s, ok := f.New().Build(Corpus()).(core.TopSearcher)
	if !ok {
		t.Skip("the searcher is not a core.TopSearcher")
	}
	for _, ctx := range contexts(f) {
		all := s.Search(ctx)
		for _, minScore := range []float64{0, 0.2, 0.5} {
			var kept []core.Match
			for _, m := range all {
				if m.Score >= minScore {
					kept = append(kept, m)
				}
			}
			for _, limit := range []int{-1, 0, 1, 2, 10} {
				top, n := s.SearchTop(ctx, minScore, limit)
				want := kept
				if limit >= 0 && limit < len(want) {
					want = want[:limit]
				}
				if n != len(kept) || !slices.EqualFunc(top, want, func(a, b core.Match) bool { return reflect.DeepEqual(a, b) }) {
					t.Errorf("SearchTop(%q, %v, %d) = %v, %d; want %v, %d", ctx, minScore, limit, paths(top), n, paths(want), len(kept))
				}
			}
		}
	}
}
