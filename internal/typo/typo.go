// Package typo owns the one measure of how far a name someone typed is from
// a name that exists, for the "did you mean" of the command line (flags,
// variables, subcommands) and of the skill catalogue alike.
package typo

// Distance is the optimal string alignment distance of a and b, by rune:
// insertions, deletions, substitutions and swaps of two neighbours count one
// each. Once the distance is sure to exceed limit it returns limit+1; a
// negative limit means none.
func Distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if limit >= 0 && abs(len(ra)-len(rb)) > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		// A row whose smallest entry is over the limit only grows from here:
		// every later entry, a swap's too, is at least that row's minimum.
		if limit >= 0 && best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(rb)]; limit < 0 || d <= limit {
		return d
	}
	return limit + 1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
