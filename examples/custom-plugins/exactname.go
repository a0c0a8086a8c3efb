package main

import (
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// exactName matches a context equal to a skill's name or path (surrounding
// spaces aside, case-sensitive) and nothing else: for clients that always
// know which skill they want.
type exactName struct{}

var _ core.Matcher = exactName{}

// Build indexes the entries by name and by path.
func (exactName) Build(entries []core.MatchEntry) core.Searcher {
	s := exactNameSearcher{}
	for _, e := range entries {
		m := core.Match{Path: e.Path, Score: 1 + e.Priority*0.001}
		s[e.Path] = appendOnce(s[e.Path], m)
		if e.Name != "" {
			s[e.Name] = appendOnce(s[e.Name], m)
		}
	}
	for _, ms := range s {
		sort.Slice(ms, func(i, j int) bool {
			if ms[i].Score != ms[j].Score {
				return ms[i].Score > ms[j].Score
			}
			return ms[i].Path < ms[j].Path
		})
	}
	return s
}

// exactNameSearcher maps a name or path to its matches, sorted. It is never
// written after Build, so concurrent Searches are safe.
type exactNameSearcher map[string][]core.Match

// Search returns the skills whose name or path is context.
func (s exactNameSearcher) Search(context string) []core.Match {
	return append([]core.Match(nil), s[strings.TrimSpace(context)]...)
}

func appendOnce(ms []core.Match, m core.Match) []core.Match {
	for _, x := range ms {
		if x.Path == m.Path {
			return ms
		}
	}
	return append(ms, m)
}
