package core_test

import (
	"math"
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// calibratedSearcher is a topSearcher whose scores are confidences.
type calibratedSearcher struct{ topSearcher }

func (calibratedSearcher) Calibrated() bool { return true }

var _ core.Calibrated = calibratedSearcher{}

// TestRankConfident checks the answers by confidence on their corners, and
// that SearchRank and RankFor take that path for a Calibrated searcher only,
// asking a TopSearcher for the matches reaching min_confidence.
func TestRankConfident(t *testing.T) {
	def := specRank
	def.MinConfidence = 0.15 // the tests below do not depend on the default's value
	with := func(edit func(*core.RankOptions)) core.RankOptions {
		c := def
		edit(&c)
		return c
	}
	m := func(path string, score float64) core.Match {
		return core.Match{Path: path, Score: score, MatchedKeywords: []string{path}}
	}
	tests := []struct {
		name    string
		matches []core.Match
		cfg     core.RankOptions
		outcome core.Outcome
		paths   []string
	}{
		{"nothing", nil, def, core.NoMatch, nil},
		{"the best under min_confidence", []core.Match{m("a", 0.149), m("b", 0.1)}, def, core.NoMatch, nil},
		{"NaN is no confidence", []core.Match{m("a", math.NaN())}, def, core.NoMatch, nil},
		{"min_confidence is inclusive", []core.Match{m("a", 0.15)}, def, core.SingleMatch, []string{"a"}},
		// min_score (0.2) is spec 000 §5's: a confidence of 0.16 is an answer.
		{"min_score does not apply", []core.Match{m("a", 0.16), m("b", 0.01)}, def, core.SingleMatch, []string{"a"}},
		{"a clear lead", []core.Match{m("a", 0.5), m("b", 0.39)}, def, core.SingleMatch, []string{"a"}},
		{"split: the gap under ambiguity_threshold", []core.Match{m("a", 0.5), m("b", 0.45), m("c", 0.44), m("d", 0.43)}, def,
			core.Ambiguous, []string{"a", "b", "c"}},
		{"weak: a small confidence, a small gap", []core.Match{m("a", 0.2), m("b", 0.16), m("c", 0.07)}, def,
			core.Ambiguous, []string{"a", "b"}},
		{"the runner-up under half of min_confidence: single", []core.Match{m("a", 0.2), m("b", 0.074)}, def, core.SingleMatch, []string{"a"}},
		// A best just over min_confidence and a runner-up just under it is a
		// weak split, not a clear answer: both are candidates.
		{"a close runner-up under min_confidence: ambiguous", []core.Match{m("a", 0.16), m("b", 0.12), m("c", 0.074)}, def,
			core.Ambiguous, []string{"a", "b"}},
		{"max_results 0: every candidate", []core.Match{m("a", 0.5), m("b", 0.5), m("c", 0.5), m("d", 0.5), m("e", 0.07)},
			with(func(c *core.RankOptions) { c.MaxResults = 0 }), core.Ambiguous, []string{"a", "b", "c", "d"}},
		{"min_confidence 0 answers any match", []core.Match{m("a", 0.01)},
			with(func(c *core.RankOptions) { c.MinConfidence = 0 }), core.SingleMatch, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var limit int
			cs := calibratedSearcher{topSearcher{listSearcher(tt.matches), &limit}}
			for name, r := range map[string]core.Ranking{
				"RankConfident": core.RankConfident(tt.matches, tt.cfg),
				"RankFor":       core.RankFor(cs, tt.matches, tt.cfg),
				"SearchRank":    core.SearchRank(cs, "ctx", tt.cfg),
			} {
				var paths []string
				for _, m := range r.Matches {
					paths = append(paths, m.Path)
				}
				if r.Outcome != tt.outcome || !slices.Equal(paths, tt.paths) {
					t.Errorf("%s = %v %v, want %v %v", name, r.Outcome, paths, tt.outcome, tt.paths)
				}
			}
		})
	}
	t.Run("not calibrated: spec 000 §5.3", func(t *testing.T) {
		ms := []core.Match{m("a", 0.16), m("b", 0.01)} // under min_score: §5 says no match
		var limit int
		plain := topSearcher{listSearcher(ms), &limit}
		if r := core.RankFor(plain, ms, def); r.Outcome != core.NoMatch {
			t.Errorf("RankFor = %+v, want no match", r)
		}
		if r := core.SearchRank(plain, "ctx", def); r.Outcome != core.NoMatch {
			t.Errorf("SearchRank = %+v, want no match", r)
		}
		if core.IsCalibrated(plain) || !core.IsCalibrated(calibratedSearcher{plain}) {
			t.Error("IsCalibrated is wrong")
		}
	})
}
