package keyword

import (
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
)

// TestRankDefaults runs Search results through core.Rank with the default
// thresholds of spec 000 §5.3 (min_score 0.2, ambiguity_threshold 0.1,
// max_results 3).
func TestRankDefaults(t *testing.T) {
	cfg := config.Default().Matching.Rank()
	tests := []struct {
		name        string
		entries     []core.MatchEntry
		context     string
		wantOutcome core.Outcome
		wantPaths   []string
	}{
		{
			name: "single clear winner",
			entries: []core.MatchEntry{
				{Path: "ui/react", Keywords: []string{"react", "component"}},
				{Path: "ui/vue", Keywords: []string{"vue", "component"}},
			},
			context:     "react component",
			wantOutcome: core.SingleMatch,
			wantPaths:   []string{"ui/react"}, // 1.0 vs 0.5
		},
		{
			name: "gap under 0.1 is ambiguous, candidates capped at 3",
			entries: []core.MatchEntry{
				{Path: "deploy/a", Keywords: []string{"deploy", "aws"}, Priority: 1},
				{Path: "deploy/b", Keywords: []string{"deploy", "gcp"}, Priority: 4},
				{Path: "deploy/c", Keywords: []string{"deploy", "azure"}, Priority: 3},
				{Path: "deploy/d", Keywords: []string{"deploy", "fly"}, Priority: 2},
			},
			context:     "deploy",
			wantOutcome: core.Ambiguous,
			wantPaths:   []string{"deploy/b", "deploy/c", "deploy/d"}, // all 0.5 + priority
		},
		{
			name: "same base, priority 1 vs 0, is ambiguous with priority first",
			entries: []core.MatchEntry{
				{Path: "a/low", Keywords: []string{"testing"}, Priority: 0},
				{Path: "b/high", Keywords: []string{"testing"}, Priority: 1},
			},
			context:     "testing",
			wantOutcome: core.Ambiguous,
			wantPaths:   []string{"b/high", "a/low"},
		},
		{
			name: "gap of exactly 0.1 in decimal is below it in floating point",
			entries: []core.MatchEntry{
				{Path: "three-of-five", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee"}},
				{Path: "one-of-two", Keywords: []string{"aaa", "zzz"}},
			},
			context:     "aaa bbb ccc",
			wantOutcome: core.Ambiguous, // 0.6 - 0.5 == 0.09999999999999998, as in JavaScript
			wantPaths:   []string{"three-of-five", "one-of-two"},
		},
		{
			name: "gap over 0.1 is a single match",
			entries: []core.MatchEntry{
				{Path: "full", Keywords: []string{"aaa", "bbb", "ccc", "ddd"}},
				{Path: "three-quarters", Keywords: []string{"aaa", "bbb", "ccc", "zzz"}},
			},
			context:     "aaa bbb ccc ddd",
			wantOutcome: core.SingleMatch,
			wantPaths:   []string{"full"}, // 1.0 vs 0.75
		},
		{
			name: "nothing reaches min_score",
			entries: []core.MatchEntry{
				{Path: "broad", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee", "fff"}},
				{Path: "broader", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee", "fff", "ggg"}},
			},
			context:     "aaa",
			wantOutcome: core.NoMatch, // 1/6 and 1/7 are under 0.2
		},
		{
			name: "no keyword matches at all",
			entries: []core.MatchEntry{
				{Path: "ui/react", Keywords: []string{"react"}},
			},
			context:     "kubernetes",
			wantOutcome: core.NoMatch,
		},
		{
			name: "two reach min_score, a clear gap gives a single match",
			entries: []core.MatchEntry{
				{Path: "broad", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee", "fff"}, Priority: 10},
				{Path: "narrow", Keywords: []string{"aaa", "bbb", "zzz", "yyy"}},
			},
			context:     "aaa bbb",
			wantOutcome: core.SingleMatch, // narrow 0.5, broad 2/6+0.01 = 0.343
			wantPaths:   []string{"narrow"},
		},
		{
			name: "exactly one above min_score",
			entries: []core.MatchEntry{
				{Path: "broad", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee", "fff"}, Priority: 10},
				{Path: "narrow", Keywords: []string{"aaa", "zzz", "yyy", "xxx"}},
			},
			context:     "aaa",
			wantOutcome: core.SingleMatch, // narrow 0.25 passes; broad 1/6+0.01 = 0.177 does not
			wantPaths:   []string{"narrow"},
		},
		{
			name: "score equal to min_score is kept",
			entries: []core.MatchEntry{
				{Path: "fifth", Keywords: []string{"aaa", "bbb", "ccc", "ddd", "eee"}},
			},
			context:     "aaa",
			wantOutcome: core.SingleMatch, // 1/5 == 0.2
			wantPaths:   []string{"fifth"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := core.Rank(New().Build(tt.entries).Search(tt.context), cfg)
			if r.Outcome != tt.wantOutcome {
				t.Errorf("Outcome = %v, want %v (matches %s)", r.Outcome, tt.wantOutcome, formatMatches(r.Matches))
			}
			var paths []string
			for _, m := range r.Matches {
				paths = append(paths, m.Path)
			}
			if !slices.Equal(paths, tt.wantPaths) {
				t.Errorf("paths = %q, want %q", paths, tt.wantPaths)
			}
		})
	}
}
