package skillscmd

import "strings"

// closest returns the name of names nearest to word when it is near enough
// to be a typo of it (an edit distance of at most 2, transpositions counting
// one, and less than half of word's length), "" otherwise. Ties go to the
// earlier name.
func closest(word string, names []string) string {
	best, bestDist := "", 3
	w := strings.ToLower(word)
	for _, n := range names {
		d := typoDistance(w, strings.ToLower(n))
		if d < bestDist && d*2 < len(w) {
			best, bestDist = n, d
		}
	}
	return best
}

// typoDistance is the optimal string alignment distance of a and b (bytes):
// insertions, deletions, substitutions and swaps of two neighbours.
func typoDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
