package core_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// listSearcher is a Searcher that answers every context with a copy of its
// list: Search order is the list's order.
type listSearcher []core.Match

func (l listSearcher) Search(string) []core.Match { return slices.Clone(l) }

// topSearcher is a listSearcher that also implements core.TopSearcher and
// records the limit it was last asked for.
type topSearcher struct {
	listSearcher
	limit *int
}

func (s topSearcher) SearchTop(_ string, minScore float64, limit int) ([]core.Match, int) {
	*s.limit = limit
	var top []core.Match
	kept := 0
	for _, m := range s.listSearcher {
		if m.Score >= minScore {
			kept++
			if limit < 0 || len(top) < limit {
				top = append(top, m)
			}
		}
	}
	return top, kept
}

var _ core.TopSearcher = topSearcher{}

// TestRankAndSearchRank checks Rank on the corners of spec 000 §5.3, and that
// SearchRank gives the same answer over a plain Searcher and over a
// TopSearcher, asking the latter for no more than the ranking can return.
func TestRankAndSearchRank(t *testing.T) {
	def := specRank // min_score 0.2, max_results 3, ambiguity_threshold 0.1
	with := func(edit func(*core.RankOptions)) core.RankOptions {
		c := def
		edit(&c)
		return c
	}
	m := func(path string, score float64) core.Match {
		return core.Match{Path: path, Score: score, MatchedKeywords: []string{path}}
	}
	nan, inf, negZero := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	tests := []struct {
		name      string
		matches   []core.Match
		cfg       core.RankOptions
		outcome   core.Outcome
		paths     []string
		wantLimit int // the limit SearchRank asks a TopSearcher for
	}{
		{"nothing", nil, def, core.NoMatch, nil, 3},
		{"all below min_score", []core.Match{m("a", 0.19), m("b", 0.1)}, def, core.NoMatch, nil, 3},
		{"min_score is inclusive", []core.Match{m("a", 0.2)}, def, core.SingleMatch, []string{"a"}, 3},
		{"clear winner", []core.Match{m("a", 0.9), m("b", 0.5), m("c", 0.45)}, def, core.SingleMatch, []string{"a"}, 3},
		{"capped at max_results", []core.Match{m("a", 0.5), m("b", 0.5), m("c", 0.5), m("d", 0.5)}, def, core.Ambiguous, []string{"a", "b", "c"}, 3},
		{"candidates stop at min_score", []core.Match{m("a", 0.5), m("b", 0.45), m("c", 0.1)}, def, core.Ambiguous, []string{"a", "b"}, 3},
		{"0.6-0.5 is below 0.1 in floating point", []core.Match{m("a", 0.6), m("b", 0.5)}, def, core.Ambiguous, []string{"a", "b"}, 3},
		{"max_results 0 returns every candidate", []core.Match{m("a", 0.5), m("b", 0.5), m("c", 0.5), m("d", 0.5), m("e", 0.1)},
			with(func(c *core.RankOptions) { c.MaxResults = 0 }), core.Ambiguous, []string{"a", "b", "c", "d"}, -1},
		{"negative max_results returns every candidate", []core.Match{m("a", 0.5), m("b", 0.5), m("c", 0.5), m("d", 0.5)},
			with(func(c *core.RankOptions) { c.MaxResults = -2 }), core.Ambiguous, []string{"a", "b", "c", "d"}, -1},
		{"max_results 1 still looks at the second", []core.Match{m("a", 0.5), m("b", 0.5)},
			with(func(c *core.RankOptions) { c.MaxResults = 1 }), core.Ambiguous, []string{"a"}, 2},
		{"max_results 1, clear winner", []core.Match{m("a", 0.9), m("b", 0.5)},
			with(func(c *core.RankOptions) { c.MaxResults = 1 }), core.SingleMatch, []string{"a"}, 2},
		{"max_results above the matches", []core.Match{m("a", 0.5), m("b", 0.5)},
			with(func(c *core.RankOptions) { c.MaxResults = 50 }), core.Ambiguous, []string{"a", "b"}, 50},
		{"min_score 0 keeps a zero score", []core.Match{m("a", 0.3), m("b", 0)},
			with(func(c *core.RankOptions) { c.MinScore = 0; c.AmbiguityThreshold = 1 }), core.Ambiguous, []string{"a", "b"}, 3},
		{"min_score 0 keeps -0", []core.Match{m("a", negZero)},
			with(func(c *core.RankOptions) { c.MinScore = 0 }), core.SingleMatch, []string{"a"}, 3},
		{"-0 and 0 tie", []core.Match{m("a", negZero), m("b", 0)},
			with(func(c *core.RankOptions) { c.MinScore = 0 }), core.Ambiguous, []string{"a", "b"}, 3},
		{"high min_score keeps the top only", []core.Match{m("a", 1.004), m("b", 1.003), m("c", 0.9)},
			with(func(c *core.RankOptions) { c.MinScore = 1 }), core.Ambiguous, []string{"a", "b"}, 3},
		{"min_score above every score", []core.Match{m("a", 1.0)},
			with(func(c *core.RankOptions) { c.MinScore = 2 }), core.NoMatch, nil, 3},
		{"NaN min_score keeps nothing", []core.Match{m("a", 1.0)},
			with(func(c *core.RankOptions) { c.MinScore = nan }), core.NoMatch, nil, 3},
		{"NaN scores never reach min_score", []core.Match{m("a", 0.9), m("b", nan), m("c", nan)},
			with(func(c *core.RankOptions) { c.MinScore = math.Inf(-1) }), core.SingleMatch, []string{"a"}, 3},
		{"threshold 0: equal scores are a single match", []core.Match{m("a", 0.5), m("b", 0.5)},
			with(func(c *core.RankOptions) { c.AmbiguityThreshold = 0 }), core.SingleMatch, []string{"a"}, 3},
		{"large threshold: any two are ambiguous", []core.Match{m("a", 1), m("b", 0.2)},
			with(func(c *core.RankOptions) { c.AmbiguityThreshold = 10 }), core.Ambiguous, []string{"a", "b"}, 3},
		{"Inf minus Inf is NaN: a single match", []core.Match{m("a", inf), m("b", inf)},
			with(func(c *core.RankOptions) { c.AmbiguityThreshold = inf }), core.SingleMatch, []string{"a"}, 3},
		{"NaN threshold is never ambiguous", []core.Match{m("a", 0.5), m("b", 0.5)},
			with(func(c *core.RankOptions) { c.AmbiguityThreshold = nan }), core.SingleMatch, []string{"a"}, 3},
		{"unsorted input: kept matches apart", []core.Match{m("a", 0.1), m("b", 0.5), m("c", 0.1), m("d", 0.45), m("e", 0.05), m("f", 0.44), m("g", 0.43)},
			def, core.Ambiguous, []string{"b", "d", "f"}, 3},
		{"unsorted input: winner after a dropped match", []core.Match{m("a", 0.1), m("b", 0.9), m("c", 0.5)},
			def, core.SingleMatch, []string{"b"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := slices.Clone(tt.matches)
			check := func(via string, got core.Ranking) {
				t.Helper()
				var paths []string
				for _, x := range got.Matches {
					paths = append(paths, x.Path)
					if len(x.MatchedKeywords) != 1 || x.MatchedKeywords[0] != x.Path {
						t.Errorf("%s: match %s has matched keywords %q, want [%s]", via, x.Path, x.MatchedKeywords, x.Path)
					}
				}
				if got.Outcome != tt.outcome || !slices.Equal(paths, tt.paths) {
					t.Errorf("%s: got %v %q, want %v %q", via, got.Outcome, paths, tt.outcome, tt.paths)
				}
				if cap(got.Matches) != len(got.Matches) {
					t.Errorf("%s: got capacity %d for %d matches, want them equal", via, cap(got.Matches), len(got.Matches))
				}
			}
			got := core.Rank(input, tt.cfg)
			check("Rank", got)
			if len(got.Matches) > 0 {
				got.Matches[0].Path = "changed"
				if !slices.EqualFunc(input, tt.matches, sameMatch) {
					t.Errorf("Rank: changing the ranking changed its input: got %v, want %v", input, tt.matches)
				}
			}
			check("SearchRank over a Searcher", core.SearchRank(listSearcher(tt.matches), "ctx", tt.cfg))
			limit := math.MinInt
			check("SearchRank over a TopSearcher", core.SearchRank(topSearcher{listSearcher(tt.matches), &limit}, "ctx", tt.cfg))
			if limit != tt.wantLimit {
				t.Errorf("SearchRank asked the TopSearcher for %d matches, want %d", limit, tt.wantLimit)
			}
		})
	}
}

// sameMatch compares two matches, scores bit for bit.
func sameMatch(a, b core.Match) bool {
	return a.Path == b.Path && math.Float64bits(a.Score) == math.Float64bits(b.Score) && slices.Equal(a.MatchedKeywords, b.MatchedKeywords)
}

// ExampleSearchRank ranks the answer of a Searcher under the default
// matching settings.
func ExampleSearchRank() {
	var s core.Searcher = listSearcher{
		{Path: "deploy/aws", Score: 0.505},
		{Path: "deploy/gcp", Score: 0.5},
		{Path: "ui/react", Score: 0.1},
	}
	r := core.SearchRank(s, "deploy the release", specRank)
	fmt.Println(r.Outcome == core.Ambiguous, len(r.Matches), r.Matches[0].Path)
	// Output: true 2 deploy/aws
}

// specRank are spec 000 §11.2's matching defaults (internal/config holds
// them for the server).
var specRank = core.RankOptions{MinScore: 0.2, MaxResults: 3, AmbiguityThreshold: 0.1, MinConfidence: 0.11}
