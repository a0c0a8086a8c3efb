package keyword

import (
	"strings"
	"unicode/utf8"
)

// shortLen is the length, in runes, under which a token or a keyword matches
// only an identical one (spec 000 §5.2, short token protection).
const shortLen = 3

// priorityWeight is the factor priority is multiplied by before it is added to
// the base score (spec 000 §5.2).
const priorityWeight = 0.001

// referenceScore is the plain reference algorithm of spec 000 §5.2. Each keyword,
// lowercased and taken in declaration order, matches when any token matches it:
// if the token or the keyword is shorter than 3 runes they must be identical,
// otherwise they match when equal or when either contains the other.
//
// matched lists the matching keywords (lowercased) in declaration order; a
// keyword declared twice counts twice. score is
// len(matched)/len(keywords) + priority*0.001, with a base of 0 when there are
// no keywords, computed in the same floating-point order as the JavaScript
// reference so that results are bit-identical.
func referenceScore(tokens []string, keywords []string, priority float64) (score float64, matched []string) {
	for _, kw := range keywords {
		kw = strings.ToLower(kw)
		for _, tok := range tokens {
			if tokenMatches(tok, kw) {
				matched = append(matched, kw)
				break
			}
		}
	}
	return finalScore(len(matched), len(keywords), priority), matched
}

// tokenMatches is the §5.2 match rule for one token and one lowercased keyword.
func tokenMatches(tok, kw string) bool {
	if utf8.RuneCountInString(tok) < shortLen || utf8.RuneCountInString(kw) < shortLen {
		return tok == kw
	}
	return tok == kw || strings.Contains(tok, kw) || strings.Contains(kw, tok)
}

// finalScore is matched/total + priority*0.001. The explicit float64
// conversion forbids the compiler from fusing the multiply and the add, so the
// result is rounded exactly as in JavaScript on every architecture.
func finalScore(matched, total int, priority float64) float64 {
	base := 0.0
	if total > 0 {
		base = float64(matched) / float64(total)
	}
	return base + float64(priority*priorityWeight)
}
