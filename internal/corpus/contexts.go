package corpus

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Contexts are get_skill contexts of the three outcomes of spec 000 §5.3 on
// one corpus.
type Contexts struct {
	// Single selects exactly one skill, SinglePath.
	Single     string
	SinglePath string
	// Ambiguous gives candidates whose top two scores are close.
	Ambiguous string
	// NoMatch reaches min_score on no skill.
	NoMatch string
}

// glue are stop words: ContextFor puts them between keywords so that the
// context reads like a request without adding tokens.
var glue = []string{"the", "for", "with", "and", "of", "in"}

// ContextFor is a request that names every keyword of s, joined by stop words
// ("the retry-cache for the api with redis").
func ContextFor(s *Skill) string {
	var b strings.Builder
	for i, kw := range s.Keywords {
		b.WriteString(glue[i%len(glue)] + " " + kw + " ")
	}
	return strings.TrimSpace(b.String())
}

// noMatchCandidates are contexts made of words no corpus uses.
var noMatchCandidates = []string{
	"zyzzyva quokka marimba",
	"walrus origami kazoo",
	"banjo tundra pelican yodel",
}

// PickContexts finds, in a fixed order, the first context of each outcome that
// rank (a search followed by core.Rank) gives on this corpus: a keyword
// request for a skill that wins alone, a single common word for ambiguity, and
// unrelated words for no match. It fails when an outcome cannot be found.
func (c *Corpus) PickContexts(rank func(context string) core.Ranking) (Contexts, error) {
	var out Contexts
	n := len(c.Skills)
	for i := range n {
		s := &c.Skills[(i*7919+n/2)%n]
		if len(s.Keywords) == 0 {
			continue
		}
		ctx := ContextFor(s)
		if r := rank(ctx); r.Outcome == core.SingleMatch && r.Matches[0].Path == s.Path {
			out.Single, out.SinglePath = ctx, s.Path
			break
		}
	}
	for _, w := range techWords {
		ctx := "help with the " + w
		if rank(ctx).Outcome == core.Ambiguous {
			out.Ambiguous = ctx
			break
		}
	}
	for _, ctx := range noMatchCandidates {
		if rank(ctx).Outcome == core.NoMatch {
			out.NoMatch = ctx
			break
		}
	}
	var missing []string
	for _, k := range []struct{ name, ctx string }{{"ambiguous", out.Ambiguous}, {"no match", out.NoMatch}, {"single", out.Single}} {
		if k.ctx == "" {
			missing = append(missing, k.name)
		}
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("picking contexts on %d skills: %w: %s", n, errNoContext, strings.Join(missing, ", "))
	}
	return out, nil
}

// errNoContext: no candidate context gives the wanted outcome.
var errNoContext = errors.New("no candidate context gives the outcome")

// RandomContexts draws n free-text contexts from seed for equivalence tests:
// keywords whole, cut, extended, capitalised or joined by hyphens and dots,
// stop words, short words, accented and other-script words, digits,
// punctuation and the empty string.
func RandomContexts(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, 0xC0DE))
	out := make([]string, n)
	for i := range out {
		parts := make([]string, rng.IntN(9))
		for j := range parts {
			parts[j] = randomPiece(rng)
		}
		out[i] = strings.Join(parts, []string{" ", " ", " ", ", ", ".", "/", "  "}[rng.IntN(7)])
	}
	return out
}

// oddPieces are tokens that stress the tokenizer and the short-token rule.
var oddPieces = []string{
	"node.js", "C++", "snake_case", "--", "-", "a-", "-api", "日本語", "हिन्दी",
	"Ωmega", "İstanbul", "ß", "42", "v2", "x", "é", "\u00e9t\u00e9", "e\u0301te\u0301",
	"\t", "\xff\xfe", "ОАuth", "ﬁle",
}

func randomPiece(rng *rand.Rand) string {
	w := techWords[rng.IntN(len(techWords))]
	switch rng.IntN(12) {
	case 0:
		return glue[rng.IntN(len(glue))]
	case 1:
		return fillerWords[rng.IntN(len(fillerWords))]
	case 2:
		return accentedWords[rng.IntN(len(accentedWords))]
	case 3:
		return oddPieces[rng.IntN(len(oddPieces))]
	case 4:
		return w[:1+rng.IntN(len(w))] // a prefix, maybe short
	case 5:
		return w[rng.IntN(len(w)):] // a suffix, maybe short
	case 6:
		return w + []string{"s", "ing", "js", "-v2", "ed"}[rng.IntN(5)]
	case 7:
		return strings.ToUpper(w)
	case 8:
		return w + "-" + techWords[rng.IntN(len(techWords))]
	default:
		return w
	}
}
