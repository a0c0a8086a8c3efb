package ranked_test

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// FuzzSearch builds the matchertest corpus plus a skill made of the fuzzed
// text and searches it with the fuzzed context: no panic, and a well-formed
// answer (known paths, each once, finite scores, sorted; terms are words of
// the context).
func FuzzSearch(f *testing.F) {
	for _, seed := range [][2]string{
		{"react login", "HTMLParser in ＲＥＡＣＴ"}, {"pdf-forms", "fill PDF forms"}, {"\xff\xfe", "caf\xe9"},
		{"google calendar", "googlecalendar"}, {"", ""}, {"ui/react/auth", "the and of"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, context, text string) {
		entries := append(matchertest.Corpus(), core.MatchEntry{Path: "fuzz/skill", Name: text, Description: text, Headings: []string{text}, Keywords: []string{text}})
		s := ranked.New().Build(entries)
		ms := s.Search(context)
		seen := map[string]bool{}
		for i, m := range ms {
			if seen[m.Path] || math.IsNaN(m.Score) || math.IsInf(m.Score, 0) || m.Score <= 0 {
				t.Fatalf("match %d %+v: repeated path or bad score", i, m)
			}
			seen[m.Path] = true
			if i > 0 && (ms[i-1].Score < m.Score || ms[i-1].Score == m.Score && ms[i-1].Path > m.Path) {
				t.Fatalf("not sorted at %d: %+v", i, ms)
			}
			for _, w := range m.MatchedKeywords {
				if !utf8.ValidString(w) || w == "" {
					t.Fatalf("matched term %q", w)
				}
			}
		}
		if ex, ok := s.(core.Explainer); ok && len(ms) > 0 {
			for _, c := range ex.Explain(context, ms[0].Path) {
				if math.IsNaN(c.Score) || c.Score < 0 || strings.ContainsRune(c.Term, utf8.RuneError) && utf8.ValidString(context) {
					t.Fatalf("contribution %+v", c)
				}
			}
		}
	})
}
