package keyword

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
)

// rankConfigs are the matching settings core.SearchRank is compared with
// core.Rank(Search) under: the defaults, max_results of 0, negative, 1 and
// above maxSelect, min_score of 0, high, unreachable, -Inf and NaN, and
// ambiguity thresholds of 0, large and +Inf.
var rankConfigs = []core.RankOptions{
	config.Default().Matching.Rank(),
	{MinScore: 0.2, MaxResults: 0, AmbiguityThreshold: 0.1},
	{MinScore: 0.2, MaxResults: -1, AmbiguityThreshold: 0.1},
	{MinScore: 0.2, MaxResults: 1, AmbiguityThreshold: 0.1},
	{MinScore: 0.2, MaxResults: 2, AmbiguityThreshold: 0.1},
	{MinScore: 0, MaxResults: 3, AmbiguityThreshold: 0.1},
	{MinScore: 0, MaxResults: maxSelect + 1, AmbiguityThreshold: 1e9},
	{MinScore: 0.2, MaxResults: maxSelect, AmbiguityThreshold: 1e9},
	{MinScore: 0.9, MaxResults: 3, AmbiguityThreshold: 0.1},
	{MinScore: 2, MaxResults: 3, AmbiguityThreshold: 0.1},
	{MinScore: 0.2, MaxResults: 3, AmbiguityThreshold: 0},
	{MinScore: 0.2, MaxResults: 3, AmbiguityThreshold: 10},
	{MinScore: 0.5, MaxResults: 2, AmbiguityThreshold: math.Inf(1)},
	{MinScore: math.Inf(-1), MaxResults: 5, AmbiguityThreshold: 0.1},
	{MinScore: math.NaN(), MaxResults: 3, AmbiguityThreshold: 0.1},
}

// topLimits and topMinScores are the arguments SearchTop is compared with a
// filtered Search under: both sides of maxSelect, 0 and negative; min_score
// of -Inf, common, high and NaN. (rankConfigs add min_score 0 and more limits.)
var (
	topLimits    = []int{-1, 0, 1, 3, maxSelect, maxSelect + 1}
	topMinScores = []float64{math.Inf(-1), 0.2, 0.99, math.NaN()}
)

// reaching is the reference of SearchTop: the matches of all scoring >=
// minScore, cut to limit (all when limit < 0), and how many there were.
func reaching(all []core.Match, minScore float64, limit int) ([]core.Match, int) {
	var kept []core.Match
	for _, m := range all {
		if m.Score >= minScore {
			kept = append(kept, m)
		}
	}
	if limit >= 0 && limit < len(kept) {
		return kept[:limit], len(kept)
	}
	return kept, len(kept)
}

// sameRanking reports whether two rankings are the same, scores bit for bit.
func sameRanking(a, b core.Ranking) bool {
	return a.Outcome == b.Outcome && identical(a.Matches, b.Matches)
}

// topMismatch compares SearchTop and core.SearchRank over s with all, the
// answer of s.Search(context), under every limit, min_score and config
// above. It describes the first difference, or returns "".
func topMismatch(s core.TopSearcher, context string, all []core.Match) string {
	for _, limit := range topLimits {
		for _, minScore := range topMinScores {
			got, gotKept := s.SearchTop(context, minScore, limit)
			want, wantKept := reaching(all, minScore, limit)
			if !identical(got, want) || gotKept != wantKept {
				return fmt.Sprintf("SearchTop(%q, %v, %d) = %d kept\n%s\nwant (Search filtered) %d kept\n%s",
					context, minScore, limit, gotKept, formatMatches(got), wantKept, formatMatches(want))
			}
		}
	}
	for _, cfg := range rankConfigs {
		got, want := core.SearchRank(s, context, cfg), core.Rank(all, cfg)
		if !sameRanking(got, want) {
			return fmt.Sprintf("SearchRank(%q, %+v) = %v\n%s\nwant (Rank of Search) %v\n%s",
				context, cfg, got.Outcome, formatMatches(got.Matches), want.Outcome, formatMatches(want.Matches))
		}
	}
	return ""
}

func TestSearchTop(t *testing.T) {
	s := New().Build([]core.MatchEntry{
		{Path: "c/full", Keywords: []string{"deploy", "aws"}},
		{Path: "a/half", Keywords: []string{"deploy", "gcp"}},
		{Path: "b/half", Keywords: []string{"deploy", "azure"}},
		{Path: "d/half-boosted", Keywords: []string{"deploy", "fly"}, Priority: 5},
		{Path: "e/third", Keywords: []string{"deploy", "x", "y"}},
		{Path: "f/nan", Keywords: []string{"deploy"}, Priority: math.NaN()},
		{Path: "g/zero-priority", Keywords: []string{"deploy", "k8s"}, Priority: math.Copysign(0, -1)},
		{Path: "h/none", Keywords: []string{"react"}},
	}).(core.TopSearcher)
	const context = "deploy with aws"
	if msg := topMismatch(s, context, s.Search(context)); msg != "" {
		t.Error(msg)
	}
	tests := []struct {
		name      string
		minScore  float64
		limit     int
		wantPaths []string
		wantKept  int
	}{
		{"all reaching, in Search order", 0, -1, []string{"c/full", "d/half-boosted", "a/half", "b/half", "g/zero-priority", "e/third"}, 6},
		{"cut to the limit", 0, 3, []string{"c/full", "d/half-boosted", "a/half"}, 6},
		{"ties keep path order", 0.5, 4, []string{"c/full", "d/half-boosted", "a/half", "b/half"}, 5},
		{"limit beyond the matches", 0.5, 100, []string{"c/full", "d/half-boosted", "a/half", "b/half", "g/zero-priority"}, 5},
		{"limit 0 still counts", 0.2, 0, nil, 6},
		{"only the top", 1, 1, []string{"c/full"}, 1},
		{"NaN priority never reaches -Inf", math.Inf(-1), -1, []string{"c/full", "d/half-boosted", "a/half", "b/half", "g/zero-priority", "e/third"}, 6},
		{"NaN min_score keeps nothing", math.NaN(), -1, nil, 0},
		{"nothing reaches", 1.5, 3, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, kept := s.SearchTop(context, tt.minScore, tt.limit)
			var paths []string
			for _, m := range got {
				paths = append(paths, m.Path)
			}
			if !slices.Equal(paths, tt.wantPaths) || kept != tt.wantKept {
				t.Errorf("got %q, %d kept, want %q, %d kept", paths, kept, tt.wantPaths, tt.wantKept)
			}
		})
	}
}

func TestSearchTopOfNothing(t *testing.T) {
	tests := []struct {
		name, context string
		entries       []core.MatchEntry
	}{
		{"no entries", "deploy", nil},
		{"no tokens", "the and of", []core.MatchEntry{{Path: "a", Keywords: []string{"deploy"}}}},
		{"no keyword matched", "react", []core.MatchEntry{{Path: "a", Keywords: []string{"deploy"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, kept := New().Build(tt.entries).(core.TopSearcher).SearchTop(tt.context, math.Inf(-1), -1)
			if got != nil || kept != 0 {
				t.Errorf("got %+v, %d kept, want nil, 0 kept", got, kept)
			}
		})
	}
}

// TestSearchRankAllocatesOnlyItsAnswer checks the point of SearchTop: a
// context every one of 5,000 entries matches costs SearchRank about what its
// three candidates take, not a Match per entry (Search allocates over 300 KB).
func TestSearchRankAllocatesOnlyItsAnswer(t *testing.T) {
	const n = 5000
	entries := make([]core.MatchEntry, n)
	for i := range entries {
		entries[i] = core.MatchEntry{Path: fmt.Sprintf("skills/%05d", i), Keywords: []string{"api", fmt.Sprintf("topic%d", i)}}
	}
	s := New().Build(entries)
	cfg := config.Default().Matching.Rank()
	if _, kept := s.(core.TopSearcher).SearchTop("api", cfg.MinScore, 0); kept != n {
		t.Fatalf("got %d kept, want %d: the context must match every entry", kept, n)
	}
	if r := core.SearchRank(s, "api", cfg); r.Outcome != core.Ambiguous || len(r.Matches) != cfg.MaxResults {
		t.Fatalf("got %v with %d matches, want %v with %d", r.Outcome, len(r.Matches), core.Ambiguous, cfg.MaxResults)
	}
	const calls, maxPerCall = 50, 2048
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		core.SearchRank(s, "api", cfg)
	}
	runtime.ReadMemStats(&after)
	if perCall := (after.TotalAlloc - before.TotalAlloc) / calls; perCall > maxPerCall {
		t.Errorf("got %d bytes allocated per SearchRank, want at most %d", perCall, maxPerCall)
	}
}

// FuzzSearchTop compares SearchTop and core.SearchRank with Search filtered
// and core.Rank of Search, on small indexes as FuzzSearch builds them, under
// a fuzzed min_score and limit besides the fixed grids.
func FuzzSearchTop(f *testing.F) {
	f.Add("react component", "react,component;vue,component;auth,authentication", 1.0, 0.2, 3)
	f.Add("deploy", "deploy,aws;deploy,gcp;deploy;deploy,x,y", 0.0, 0.0, -1)
	f.Add("cache redis", "cache;cache,redis;cache,cache", -2.0, 0.5, 1)
	f.Fuzz(func(t *testing.T, context, index string, priority, minScore float64, limit int) {
		var entries []core.MatchEntry
		for i, list := range strings.Split(index, ";") {
			entries = append(entries, core.MatchEntry{
				Path: fmt.Sprintf("e%d", i%5), Keywords: strings.Split(list, ","), Priority: priority * float64(i%3),
			})
		}
		s := New().Build(entries).(core.TopSearcher)
		all := s.Search(context)
		got, gotKept := s.SearchTop(context, minScore, limit)
		if want, wantKept := reaching(all, minScore, limit); !identical(got, want) || gotKept != wantKept {
			t.Errorf("SearchTop(%q, %v, %d) over %q = %d kept\n%s\nwant %d kept\n%s",
				context, minScore, limit, index, gotKept, formatMatches(got), wantKept, formatMatches(want))
		}
		cfg := core.RankOptions{MinScore: minScore, MaxResults: limit, AmbiguityThreshold: priority}
		if got, want := core.SearchRank(s, context, cfg), core.Rank(all, cfg); !sameRanking(got, want) {
			t.Errorf("SearchRank(%q, %+v) over %q = %v\n%s\nwant %v\n%s",
				context, cfg, index, got.Outcome, formatMatches(got.Matches), want.Outcome, formatMatches(want.Matches))
		}
		if msg := topMismatch(s, context, all); msg != "" {
			t.Errorf("over %q: %s", index, msg)
		}
	})
}
