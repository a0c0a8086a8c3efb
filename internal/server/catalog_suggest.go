package server

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/typo"
)

// maxSuggestions bounds the names a not-found answer suggests.
const maxSuggestions = 10

// suggestionDescriptionChars bounds each suggestion's description, so that
// a not-found answer stays under 4 KB whatever the skills say.
const suggestionDescriptionChars = 160

// notFoundMessage is the error of `skill` for a name no skill has: at most
// maxSuggestions close names (the names most alike first, then the skills
// the matcher ranks for the name as a query), then, when listAll (the names
// fit the catalogue budget, as file 002's answer lists them), every name;
// otherwise how many skills there are and where to look for the others (hint).
func notFoundMessage(snap *index.Snapshot, requested string, entries []catalogEntry, listAll bool, hint string) string {
	shown := requested
	if utf8.RuneCountInString(shown) > 100 {
		shown = string([]rune(shown)[:100]) + "…"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Skill '%s' not found.", shown)
	if sugg := suggestions(snap, requested, entries); len(sugg) > 0 {
		b.WriteString(" Closest names:\n")
		for _, e := range sugg {
			b.WriteString("- " + e.Name + ": " + cutText(e.Description, suggestionDescriptionChars) + "\n")
		}
	} else {
		b.WriteString(" No skill has a name close to it.\n")
	}
	if listAll {
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name
		}
		fmt.Fprintf(&b, "Available skills (%d): %s. Names are case-insensitive; a skill's path loads it too.", len(entries), strings.Join(names, ", "))
		return b.String()
	}
	fmt.Fprintf(&b, "%d skills in all; %s. Names are case-insensitive; a skill's path loads it too.", len(entries), hint)
	return b.String()
}

// namesFit reports whether the names of entries fit the `skill` tool's
// description budget maxChars: then the description lists them all, and so
// does the answer to an unknown name.
func namesFit(entries []catalogEntry, maxChars int) bool {
	return listCost(entries, 0) <= maxChars-utf8.RuneCountInString(skillToolPreamble)-utf8.RuneCountInString(skillToolClosing)
}

// notFoundHint says where to find a skill by what it does, depending on the
// tool sets served.
func notFoundHint(sets map[string]bool) string {
	switch {
	case sets[ToolSetSk]:
		return "skills_search finds a skill by what it does"
	case sets[ToolSetCore]:
		return "get_skill finds a skill by what it does"
	default:
		return "the skill tool's description lists them"
	}
}

// suggestions picks up to maxSuggestions entries for a name no skill has:
// names containing it or contained in it, and names within a small edit
// distance, closest first; then the skills the matcher ranks for it, in
// its order.
func suggestions(snap *index.Snapshot, requested string, entries []catalogEntry) []catalogEntry {
	q := strings.ToLower(strings.TrimSpace(requested))
	if q == "" || utf8.RuneCountInString(q) > 200 {
		return nil
	}
	type scored struct {
		e     catalogEntry
		score int
	}
	var close []scored
	for _, e := range entries {
		n := strings.ToLower(e.Name)
		base := n[strings.LastIndexByte(n, '/')+1:]
		switch {
		case strings.Contains(n, q) || strings.Contains(q, base) && len(base) >= 3:
			close = append(close, scored{e, abs(len(n) - len(q))})
		default:
			limit := max(2, utf8.RuneCountInString(q)/3)
			if d := typo.Distance(q, base, limit); d <= limit {
				close = append(close, scored{e, d})
			}
		}
	}
	sort.SliceStable(close, func(i, j int) bool { return close[i].score < close[j].score })
	out := make([]catalogEntry, 0, maxSuggestions)
	seen := map[string]bool{}
	for _, c := range close {
		if len(out) == maxSuggestions {
			return out
		}
		out = append(out, c.e)
		seen[c.e.Path] = true
	}
	// Then the catalogue's entries the configured matcher finds for the
	// request, in its order (what get_skill would answer first comes first).
	byPath := make(map[string]catalogEntry, len(entries))
	for _, e := range entries {
		if _, dup := byPath[e.Path]; !dup {
			byPath[e.Path] = e
		}
	}
	for _, m := range snap.Searcher().Search(requested) {
		if len(out) == maxSuggestions {
			break
		}
		if e, ok := byPath[m.Path]; ok && !seen[m.Path] {
			out = append(out, e)
			seen[m.Path] = true
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
