package keyword

import "strings"

// Hit says why one keyword matched: the first context token that hit it and how.
type Hit struct {
	// Keyword is the skill keyword, lowercased.
	Keyword string `json:"keyword"`
	// Token is the context token that matched it ("" when none did).
	Token string `json:"token,omitempty"`
	// How is "exact", "token contains keyword", "keyword contains token", or "" for a miss.
	How string `json:"how,omitempty"`
}

// Explain scores like referenceScore and says, keyword by keyword, which token matched
// and by which rule, so a skill author can tune keywords. It uses the same
// match rule, so its score is referenceScore's.
func Explain(tokens, keywords []string, priority float64) (float64, []Hit) {
	hits := make([]Hit, 0, len(keywords))
	matched := 0
	for _, kw := range keywords {
		kw = strings.ToLower(kw)
		h := Hit{Keyword: kw}
		for _, tok := range tokens {
			if tokenMatches(tok, kw) {
				h.Token, h.How = tok, howMatched(tok, kw)
				matched++
				break
			}
		}
		hits = append(hits, h)
	}
	return finalScore(matched, len(keywords), priority), hits
}

func howMatched(tok, kw string) string {
	switch {
	case tok == kw:
		return "exact"
	case strings.Contains(tok, kw):
		return "token contains keyword"
	default:
		return "keyword contains token"
	}
}
