package keyword

import (
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/skills-mcp/skills-mcp/core"
)

func FuzzTokenize(f *testing.F) {
	f.Add("Create a React component for the authentication")
	f.Add("Créer des données")
	f.Add("node.js C++ snake_case -- -")
	f.Fuzz(func(t *testing.T, context string) {
		tokens := Tokenize(context)
		seen := make(map[string]bool, len(tokens))
		for _, tok := range tokens {
			switch {
			case tok == "":
				t.Errorf("Tokenize(%q) holds an empty token", context)
			case strings.IndexFunc(tok, unicode.IsSpace) >= 0:
				t.Errorf("Tokenize(%q) token %q holds whitespace", context, tok)
			case strings.IndexFunc(tok, func(r rune) bool { return keepRune(r) != r }) >= 0:
				t.Errorf("Tokenize(%q) token %q holds a rune that is not a letter, digit or hyphen", context, tok)
			case strings.Trim(tok, "-") == "":
				t.Errorf("Tokenize(%q) token %q is only hyphens", context, tok)
			case isStopword(tok):
				t.Errorf("Tokenize(%q) token %q is a stop word", context, tok)
			case seen[tok]:
				t.Errorf("Tokenize(%q) token %q appears twice", context, tok)
			}
			seen[tok] = true
		}
	})
}

func FuzzScore(f *testing.F) {
	f.Add("Create a React component for the authentication", "react,component,auth", 10.0)
	f.Add("go js ts", "golang,json,ts", 0.0)
	f.Add("", "", -3.0)
	f.Fuzz(func(t *testing.T, context, keywordList string, priority float64) {
		if math.IsNaN(priority) || math.IsInf(priority, 0) || math.Abs(priority) > 1e12 {
			t.Skip("priority is a finite, moderate number in skill frontmatter")
		}
		keywords := strings.Split(keywordList, ",")
		tokens := Tokenize(context)
		score, matched := referenceScore(tokens, keywords, priority)

		boost := priority * 0.001
		if lo, hi := min(0, boost), 1+boost; score < lo || score > hi {
			t.Errorf("referenceScore = %v, want within [%v, %v]", score, lo, hi)
		}
		if priority >= 0 && score < 0 {
			t.Errorf("referenceScore = %v with priority %v, want >= 0", score, priority)
		}
		if len(matched) > len(keywords) {
			t.Errorf("matched %d keywords of %d", len(matched), len(keywords))
		}
		lower := make([]string, len(keywords))
		for i, kw := range keywords {
			lower[i] = strings.ToLower(kw)
		}
		if !isSubsequence(matched, lower) {
			t.Errorf("matched %q is not a subsequence of the lowercased keywords %q", matched, lower)
		}

		// The prepared Searcher must agree with the plain algorithm.
		got := New().Build([]core.MatchEntry{{Path: "p", Keywords: keywords, Priority: priority}}).Search(context)
		var want []core.Match
		if len(matched) > 0 {
			want = []core.Match{{Path: "p", Score: score, MatchedKeywords: matched}}
		}
		if !matchesEqual(got, want) {
			t.Errorf("Search =\n%s\nwant (from referenceScore)\n%s", formatMatches(got), formatMatches(want))
		}
	})
}

// isSubsequence reports whether sub appears in all, in order.
func isSubsequence(sub, all []string) bool {
	i := 0
	for _, s := range sub {
		j := slices.Index(all[i:], s)
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return true
}
