// Package auto is the default core.Matcher of skills-mcp: per snapshot, it
// routes with spec 000 §5's keyword matcher when the content was written for
// it (most skills declare `keywords`) and with the ranked matcher otherwise
// (Agent Skills folders, whose signal is prose). docs/RATIONALE.md explains
// the choice for a mixed tree.
package auto

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Matcher picks one of two matchers per snapshot.
type Matcher struct {
	// Keyword serves snapshots whose skills mostly declare keywords.
	Keyword core.Matcher
	// Ranked serves the others.
	Ranked core.Matcher
}

// New returns a Matcher choosing between keyword and ranked.
func New(keyword, ranked core.Matcher) *Matcher { return &Matcher{Keyword: keyword, Ranked: ranked} }

// Build implements core.Matcher: the keyword matcher when at least half of
// the routable skills (neither `_root` nor a category's `_index`) declare
// keywords, the ranked matcher otherwise. An empty snapshot goes to keyword.
func (m *Matcher) Build(entries []core.MatchEntry) core.Searcher {
	if UsesKeywords(entries) {
		return m.Keyword.Build(entries)
	}
	return m.Ranked.Build(entries)
}

// UsesKeywords reports whether entries are content written for spec 000 §5:
// at least half of the routable skills declare keywords.
func UsesKeywords(entries []core.MatchEntry) bool {
	routable, declared := 0, 0
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
	return declared*2 >= routable
}
