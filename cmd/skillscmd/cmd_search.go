package skillscmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

type searchMatch struct {
	SkillPath       string        `json:"skill_path"`
	Score           float64       `json:"score"`
	Description     string        `json:"description"`
	MatchedKeywords []string      `json:"matched_keywords"`
	Hits            []keyword.Hit `json:"hits,omitempty"`
	// Contributions explain a score of a matcher that can (core.Explainer).
	Contributions []core.Contribution `json:"contributions,omitempty"`
}

type searchResult struct {
	Context string        `json:"context"`
	Outcome string        `json:"outcome"` // "match", "ambiguous" or "no_match"
	Matches []searchMatch `json:"matches"`
	Scored  []searchMatch `json:"scored,omitempty"` // --explain: every skill above zero
}

// errNoMatch makes `search` exit 1 when nothing matches, so scripts can tell.
var errNoMatch = fmt.Errorf("no skill matches")

// searchCmd answers what get_skill would, and with --explain why.
func searchCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	fs := newFlagSet("search", "search [--explain] CONTEXT…", "Show what get_skill answers for CONTEXT.", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	asJSON := fs.Bool("json", false, "print JSON")
	explain := fs.Bool("explain", false, "show every skill scoring above zero and what earned its score: which tokens hit which keywords, or for the ranked matcher each term's part per field")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) == 0 {
		return usagef("search: give the task description, e.g. skills-mcp search \"add a login form in React\"")
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	text := strings.Join(pos, " ")
	searcher := c.snap.Searcher()
	matches := searcher.Search(text)
	ranking := core.RankFor(searcher, matches, c.loaded.Config.Matching.Rank())
	res := searchResult{Context: text, Outcome: ranking.Outcome.String(), Matches: []searchMatch{}}
	for _, m := range ranking.Matches {
		res.Matches = append(res.Matches, c.describeMatch(m, nil))
	}
	if *explain {
		tokens := keyword.Tokenize(text)
		ex, explains := searcher.(core.Explainer)
		for _, m := range matches {
			if explains {
				d := c.describeMatch(m, nil)
				if d.Contributions = ex.Explain(text, m.Path); d.Contributions != nil {
					res.Scored = append(res.Scored, d)
					continue
				} // a skill scored by its keywords (auto's mixed tree): they explain it
			}
			res.Scored = append(res.Scored, c.describeMatch(m, tokens))
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, res); err != nil {
			return err
		}
	} else {
		printSearch(stdout, res, *explain, keyword.Tokenize(text))
	}
	if ranking.Outcome == core.NoMatch {
		return errNoMatch
	}
	return nil
}

func (c *content) describeMatch(m core.Match, tokens []string) searchMatch {
	out := searchMatch{SkillPath: m.Path, Score: math.Round(m.Score*1000) / 1000, MatchedKeywords: m.MatchedKeywords}
	if sk, ok := c.snap.Get(m.Path); ok {
		out.Description = sk.Description
		if tokens != nil {
			kws := sk.Keywords
			if len(kws) == 0 {
				kws = keyword.DeriveKeywords(sk.Name, sk.Description)
			}
			_, out.Hits = keyword.Explain(tokens, kws, sk.Priority)
		}
	}
	return out
}

func printSearch(w io.Writer, res searchResult, explain bool, tokens []string) {
	switch res.Outcome {
	case "match":
		m := res.Matches[0]
		fmt.Fprintf(w, "match: %s (score %v)\n  %s\n  matched keywords: %s\n", m.SkillPath, m.Score, m.Description, strings.Join(m.MatchedKeywords, ", "))
	case "ambiguous":
		fmt.Fprintf(w, "ambiguous: %d candidates (pick one with get_skill's skill_path)\n", len(res.Matches))
		for _, m := range res.Matches {
			fmt.Fprintf(w, "  %-6v %s  [%s]  %s\n", m.Score, m.SkillPath, strings.Join(m.MatchedKeywords, ", "), m.Description)
		}
	default:
		fmt.Fprintln(w, "no match")
	}
	if !explain {
		return
	}
	fmt.Fprintf(w, "\ntokens: %s\nevery skill scoring above zero:\n", strings.Join(tokens, ", "))
	if len(res.Scored) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, m := range res.Scored {
		fmt.Fprintf(w, "  %-6v %s\n", m.Score, m.SkillPath)
		printContributions(w, m.Contributions)
		for _, h := range m.Hits {
			if h.Token == "" {
				fmt.Fprintf(w, "         - %s: no token\n", h.Keyword)
			} else {
				fmt.Fprintf(w, "         + %s ← %s (%s)\n", h.Keyword, h.Token, h.How)
			}
		}
	}
}

// printContributions says what earned a ranked score, in an author's terms:
// each term's part per field, and the query's terms the skill lacks.
func printContributions(w io.Writer, cs []core.Contribution) {
	var missing []string
	for _, c := range cs {
		switch {
		case c.Field == "exact":
			fmt.Fprintf(w, "         = the context is this skill's name or path: it wins outright\n")
		case c.Field != "":
			fmt.Fprintf(w, "         + %-14s in %-11s ×%d  %5.2f  (%s)\n", c.Term, c.Field, c.Count, c.Score, rarity(c.Weight))
		case c.Weight == 0:
			missing = append(missing, c.Term+" (in no skill)")
		default:
			missing = append(missing, c.Term)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "         - not in this skill: %s\n", strings.Join(missing, ", "))
	}
}

// rarity puts a term's IDF in words.
func rarity(idf float64) string {
	if idf < 1 { // BM25's IDF is under 1 for a term in over ~37% of the skills
		return fmt.Sprintf("term weight %.1f: over a third of the skills have it, worth little", idf)
	}
	return fmt.Sprintf("term weight %.1f", idf)
}
