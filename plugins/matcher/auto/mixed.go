package auto

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// mixed routes a tree written mostly for spec 000 §5 that also holds skills
// without keywords (an Agent Skill added to a keywords tree): §5 scores the
// skills that declare keywords, the ranked matcher the others (its
// confidences, over the whole catalogue's vocabulary), and a context that is
// a skill's exact name or path answers that skill before any scoring. Its
// scores are §5's and confidences side by side, both from 0 to 1 for one
// context, so get_skill ranks them with spec 000 §5.3 (min_score,
// ambiguity_threshold).
type mixed struct {
	keyword core.Searcher
	ranked  core.Searcher
	// prose holds the paths the ranked matcher answers for.
	prose map[string]bool
	// exact maps ranked.ExactKey of each routable skill's name, path and
	// folder name to the skills it names, in path order.
	exact    map[string][]string
	priority map[string]float64
}

// newMixed builds the two searchers over entries: keyword over the skills
// declaring keywords (and `_root`, `_index`, as §5 sees them), ranked over
// all.
func newMixed(keyword, rankedMatcher core.Matcher, entries []core.MatchEntry) *mixed {
	m := &mixed{prose: map[string]bool{}, exact: map[string][]string{}, priority: map[string]float64{}}
	withKeywords := make([]core.MatchEntry, 0, len(entries))
	for _, e := range entries {
		if !routable(e.Path) {
			withKeywords = append(withKeywords, e)
			continue
		}
		if len(e.Keywords) > 0 {
			withKeywords = append(withKeywords, e)
		} else {
			m.prose[e.Path] = true
		}
		m.priority[e.Path] = e.Priority
		if strings.HasPrefix(e.Path[strings.LastIndexByte(e.Path, '/')+1:], "_") {
			continue // a name of its own only for a skill, as the ranked matcher's
		}
		for _, key := range [...]string{ranked.ExactKey(e.Name), ranked.ExactKey(e.Path), ranked.ExactKey(e.Path[strings.LastIndexByte(e.Path, '/')+1:])} {
			if key != "" && !slices.Contains(m.exact[key], e.Path) {
				m.exact[key] = append(m.exact[key], e.Path)
			}
		}
	}
	for _, paths := range m.exact {
		slices.Sort(paths)
	}
	m.keyword = keyword.Build(withKeywords)
	m.ranked = rankedMatcher.Build(entries)
	return m
}

// exactShare is what the other matches of a context that names a skill
// exactly keep of their score: under half, so the named skill wins clearly.
const exactShare = 0.5

// Search implements core.Searcher: the skills the context names exactly at 1
// (plus priority), then every match of either matcher in its own matcher's
// score (halved after an exact hit), by score then path.
func (m *mixed) Search(context string) []core.Match {
	named := m.exact[ranked.ExactKey(context)]
	var out []core.Match
	for _, path := range named {
		out = append(out, core.Match{Path: path, Score: 1 + finite(m.priority[path])*0.001, MatchedKeywords: []string{}})
	}
	add := func(ms []core.Match, prose bool) {
		for _, x := range ms {
			if m.prose[x.Path] != prose || slices.Contains(named, x.Path) {
				continue
			}
			if len(named) > 0 {
				x.Score *= exactShare
			}
			out = append(out, x)
		}
	}
	add(m.keyword.Search(context), false)
	add(m.ranked.Search(context), true)
	slices.SortStableFunc(out, func(a, b core.Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// Explain implements core.Explainer for the skills the ranked matcher
// scores; nil for the others, which their keywords explain (keyword.Explain).
func (m *mixed) Explain(context, path string) []core.Contribution {
	if ex, ok := m.ranked.(core.Explainer); ok && m.prose[path] {
		return ex.Explain(context, path)
	}
	return nil
}

// routable reports whether path is a skill a context routes to: not a tree's
// `_root` or a category's `_index`.
func routable(path string) bool {
	last := path[strings.LastIndexByte(path, '/')+1:]
	return last != "_root" && last != "_index"
}

// finite is p, or 0 when p is NaN or infinite (a priority that does not
// order).
func finite(p float64) float64 {
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return 0
	}
	return p
}
