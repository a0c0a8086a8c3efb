// Package auto is the default core.Matcher of skills-mcp: per snapshot, it
// routes with spec 000 §5's keyword matcher when every skill was written for
// it (declares `keywords`), with the ranked matcher when most skills are
// prose (Agent Skills folders), and with both in a tree of keywords skills
// that also holds skills without keywords (each kind by its own matcher, an
// exact name or path first). docs/RATIONALE.md explains the choice.
package auto

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// matcher picks one of two matchers, or both, per snapshot.
type matcher struct {
	// Keyword serves snapshots whose skills all declare keywords.
	Keyword core.Matcher
	// Ranked serves snapshots whose skills mostly do not, and the skills
	// without keywords of the others.
	Ranked core.Matcher
}

// New returns a matcher choosing between keyword and ranked.
func New(keyword, ranked core.Matcher) core.Matcher {
	return &matcher{Keyword: keyword, Ranked: ranked}
}

// Build implements core.Matcher. Counting the routable skills (neither
// `_root` nor a category's `_index`): when all of them declare keywords (or
// there is none), the keyword matcher, so the tree is routed by spec 000 §5
// exactly; when fewer than half do, the ranked matcher; otherwise both: §5
// for the skills with keywords, ranked for the others, and a context that is
// a skill's exact name or path answers that skill first.
func (m *matcher) Build(entries []core.MatchEntry) core.Searcher {
	routable, declared := count(entries)
	switch {
	case declared == routable:
		return m.Keyword.Build(entries)
	case declared*2 < routable:
		return m.Ranked.Build(entries)
	default:
		return newMixed(m.Keyword, m.Ranked, entries)
	}
}

// count returns how many entries are routable skills and how many of those
// declare keywords.
func count(entries []core.MatchEntry) (routable, declared int) {
	for _, e := range entries {
		last := e.Path[strings.LastIndexByte(e.Path, '/')+1:]
		if last == "_root" || last == "_index" {
			continue
		}
		routable++
		if len(e.Keywords) > 0 {
			declared++
		}
	}
	return routable, declared
}
