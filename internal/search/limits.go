package search

import "index/suffixarray"

// MaxQueryWords bounds the whitespace-separated words of a
// skills_search query; a longer query is refused with an error naming the
// limit. A query's cost grows with its words (the vocabulary looked up and a
// set of skills kept per word), so the limit bounds the work and the memory
// of one search. README "Limits per request".
const MaxQueryWords = 256

// ExcerptRunes is the width of a hit's excerpt window, in characters.
const ExcerptRunes = 160

// ctxCheckEvery is how many iterations of a loop over skills or candidates
// run between two checks of the request's context.
const ctxCheckEvery = 256

// outerTokens returns, in order, the indices of the tokens that are neither
// inside another token of tokens (a in add, it in with) nor the same as one
// met before: every skill holding the others holds them. One suffix array
// over the distinct tokens answers each with a binary search, so the cost
// grows with the query's length: comparing every token with every other took
// 0.67 s of CPU at 10,000 distinct words and 56 s at 100,000. Tokens hold no
// white space (strings.Fields), so a token occurs in the joined text only in
// its own place and inside longer tokens.
func outerTokens(tokens []string) []int {
	first := make(map[string]bool, len(tokens))
	distinct := make([]int, 0, len(tokens))
	size := 1
	for i, t := range tokens {
		if !first[t] {
			first[t] = true
			distinct = append(distinct, i)
			size += len(t) + 1
		}
	}
	if len(distinct) < 2 {
		return distinct
	}
	joined := make([]byte, 0, size)
	joined = append(joined, '\n')
	for _, i := range distinct {
		joined = append(append(joined, tokens[i]...), '\n')
	}
	sa := suffixarray.New(joined)
	out := distinct[:0]
	for _, i := range distinct {
		if len(sa.Lookup([]byte(tokens[i]), 2)) < 2 {
			out = append(out, i)
		}
	}
	return out
}
