package server

import (
	"strconv"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// defaultSuggestions is how many skills a no_match answer suggests when
// matching.max_results sets no bound.
const defaultSuggestions = 3

// noMatch is get_skill's answer when no skill reaches min_score: spec 000's
// message, the closest skills the matcher scored below it, and a hint naming
// the tool to browse the skills with (skills_search when the sk tool set is
// served, list_skills otherwise). The suggestions come from the snapshot's
// Searcher, the one that ranked the context: a TopSearcher is asked for the
// head of its ranking only.
func (s *Server) noMatch(snap *index.Snapshot, context string) noMatchResult {
	out := noMatchResult{NoMatch: true, Message: noMatchMessage}
	n := s.opts.Config.Matching.MaxResults
	if n <= 0 {
		n = defaultSuggestions
	}
	var matches []core.Match
	if ts, ok := snap.Searcher().(core.TopSearcher); ok {
		matches, _ = ts.SearchTop(context, 0, n)
	} else if all := snap.Searcher().Search(context); len(all) > 0 {
		matches = all[:min(n, len(all))]
	}
	for _, m := range matches {
		sk, ok := snap.Get(m.Path)
		if !ok {
			continue
		}
		out.Suggestions = append(out.Suggestions, candidate{
			SkillPath: m.Path, Score: roundScore(m.Score), Description: sk.Description, MatchedKeywords: nonNil(m.MatchedKeywords),
		})
	}
	out.Hint = noMatchHint(len(out.Suggestions) > 0, s.opts.Config.Matching.MinScore, servedToolSets(s.opts.ToolSets)[ToolSetSk])
	return out
}

// noMatchHint is the next step a no_match answer offers.
func noMatchHint(suggested bool, minScore float64, sk bool) string {
	hint := ""
	if suggested {
		hint = "The suggestions scored below min_score (" + strconv.FormatFloat(minScore, 'g', -1, 64) +
			"): call get_skill with the skill_path of one that fits. "
	}
	if sk {
		return hint + "Search the skills' text with skills_search (a word or two of the task), or describe the task in other words."
	}
	return hint + "Browse the skills with list_skills and call get_skill with a skill_path, or describe the task in other words."
}
