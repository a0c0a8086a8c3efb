package server

import (
	"sort"

	"github.com/skills-mcp/skills-mcp/core/index"
)

// byRelevance orders entries as the configured matcher ranks them for query
// (what get_skill would answer first comes first), the skills it does not
// rank after them in their given order. The `skill` tool's not-found answer
// lists the catalogue this way, so the skill meant by a mistyped or partial
// name heads the list.
func byRelevance(snap *index.Snapshot, query string, entries []catalogEntry) []catalogEntry {
	rank := map[string]int{}
	for i, m := range snap.Searcher().Search(query) {
		if _, seen := rank[m.Path]; !seen {
			rank[m.Path] = i
		}
	}
	if len(rank) == 0 {
		return entries
	}
	pos := func(e catalogEntry) int {
		if r, ok := rank[e.Path]; ok {
			return r
		}
		return len(rank)
	}
	sort.SliceStable(entries, func(i, j int) bool { return pos(entries[i]) < pos(entries[j]) })
	return entries
}
