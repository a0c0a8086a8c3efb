package skillscmd

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/typo"
)

// closest returns the name of names nearest to word when it is near enough
// to be a typo of it (typo.Distance at most 2 and less than half of word's
// length), "" otherwise. Ties go to the
// earlier name.
func closest(word string, names []string) string {
	best, bestDist := "", 3
	w := strings.ToLower(word)
	for _, n := range names {
		d := typo.Distance(w, strings.ToLower(n), 2)
		if d < bestDist && d*2 < len(w) {
			best, bestDist = n, d
		}
	}
	return best
}
