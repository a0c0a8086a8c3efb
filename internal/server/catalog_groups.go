package server

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// topLevelGroup names the group of the skills that sit in no folder.
const topLevelGroup = "(top level)"

// catalogGroup is one collection of the catalogue: the skills under one
// top-level folder, best known first.
type catalogGroup struct {
	Name    string
	Members []catalogEntry
}

// collectionOf is the collection a skill path belongs to: its first segment,
// or topLevelGroup for a path of one segment.
func collectionOf(path string) string {
	if i := strings.IndexByte(path, '/'); i > 0 {
		return path[:i]
	}
	return topLevelGroup
}

// groupCatalog splits entries by collection, the groups sorted by name, and
// each group's skills best known first (bestKnown).
func groupCatalog(entries []catalogEntry, usage map[string]int) []catalogGroup {
	byName := map[string]*catalogGroup{}
	var groups []*catalogGroup
	for _, e := range entries {
		name := collectionOf(e.Path)
		g, ok := byName[name]
		if !ok {
			g = &catalogGroup{Name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		g.Members = append(g.Members, e)
	}
	out := make([]catalogGroup, 0, len(groups))
	for _, g := range groups {
		slices.SortStableFunc(g.Members, func(a, b catalogEntry) int { return bestKnown(a, b, usage) })
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b catalogGroup) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// bestKnown orders the skills of a collection for a catalogue that cannot
// name them all: the most used first (usage counts skills served since the
// server started), then the highest priority (the authors' own signal), then
// the shallowest (a collection's main skills before its details), then by
// name; `_index` and `_root` last.
func bestKnown(a, b catalogEntry, usage map[string]int) int {
	if c := cmp.Compare(usage[b.Path], usage[a.Path]); c != 0 {
		return c
	}
	if c := cmp.Compare(hidden(a.Path), hidden(b.Path)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	if c := cmp.Compare(strings.Count(a.Path, "/"), strings.Count(b.Path, "/")); c != 0 {
		return c
	}
	if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// hidden is 1 for a category's `_index` or the `_root`, 0 for other skills.
func hidden(path string) int {
	if strings.HasPrefix(path[strings.LastIndexByte(path, '/')+1:], "_") {
		return 1
	}
	return 0
}

// groupedHeader opens a grouped catalogue: what the lines are and how to
// reach the skills they do not name (search).
func groupedHeader(skills, groups int, search string) string {
	noun := "collections"
	if groups == 1 {
		noun = "collection"
	}
	return fmt.Sprintf("<!-- %d skills in %d %s, too many to list one by one. Each line is a collection "+
		"(top-level folder) with its number of skills and some of them by name, the most used first. "+
		"Any skill loads by its name, listed or not; %s. -->", skills, groups, noun, search)
}

// searchHint says how to find a skill the grouped catalogue does not name,
// with the tools served.
func searchHint(sets map[string]bool) string {
	switch {
	case sets[ToolSetSk]:
		return "to find one by what it does, use skills_search; skills_list lists every one"
	case sets[ToolSetCore]:
		return "to find one, describe the task to get_skill; list_skills lists every one"
	default:
		return "to find one, call skill with a likely name: an unknown name answers with the closest ones"
	}
}

// groupLineOpen and groupLineClose frame one collection's line.
func groupLineOpen(g catalogGroup) string {
	return `<collection name="` + xmlEscape(g.Name) + `" skills="` + strconv.Itoa(len(g.Members)) + `">`
}

const groupLineClose = "</collection>"

// more ends a line that does not name every skill of its collection.
const more = ", …"

// groupedDescription renders the catalogue as one line per collection within
// maxChars characters: the header, then the collections (the largest ones
// when not all fit, the others counted in one comment), each naming as many
// of its best-known skills as fit, filled in turns so every collection gets
// its share. ok is false when not even the header and one collection fit.
func groupedDescription(entries []catalogEntry, maxChars int, search string, usage map[string]int) (_ string, ok bool) {
	groups := groupCatalog(entries, usage)
	header := groupedHeader(len(entries), len(groups), search)
	room := maxChars - utf8.RuneCountInString(skillToolPreamble) - utf8.RuneCountInString(skillToolClosing) - utf8.RuneCountInString(header)
	// Which collections get a line: all when they fit, else the largest.
	base := func(g catalogGroup) int {
		return 1 + utf8.RuneCountInString(groupLineOpen(g)) + utf8.RuneCountInString(groupLineClose) + utf8.RuneCountInString(more)
	}
	bySize := make([]int, len(groups))
	for i := range bySize {
		bySize[i] = i
	}
	slices.SortStableFunc(bySize, func(a, b int) int { return cmp.Compare(len(groups[b].Members), len(groups[a].Members)) })
	chosen := make([]bool, len(groups))
	used, shown, skillsShown := 0, 0, 0
	for _, i := range bySize {
		reserve := 0
		if shown+1 < len(groups) {
			reserve = 1 + utf8.RuneCountInString(omittedGroupsLine(len(groups)-shown-1, len(entries)-skillsShown-len(groups[i].Members)))
		}
		if used+base(groups[i])+reserve > room {
			break // the largest first, strictly
		}
		chosen[i] = true
		used += base(groups[i])
		shown++
		skillsShown += len(groups[i].Members)
	}
	if shown == 0 {
		return "", false
	}
	if shown < len(groups) {
		used += 1 + utf8.RuneCountInString(omittedGroupsLine(len(groups)-shown, len(entries)-skillsShown))
	}
	// Names in turns: each collection's next best-known skill, until none fits.
	named := make([]int, len(groups))
	full := make([]bool, len(groups))
	for added := true; added; {
		added = false
		for i, g := range groups {
			if !chosen[i] || full[i] || named[i] == len(g.Members) {
				continue
			}
			cost := utf8.RuneCountInString(xmlEscape(g.Members[named[i]].Name))
			if named[i] > 0 {
				cost += 2 // ", "
			}
			if used+cost > room {
				full[i] = true
				continue
			}
			used += cost
			named[i]++
			added = true
		}
	}
	lines := []string{header}
	for i, g := range groups {
		if !chosen[i] {
			continue
		}
		names := make([]string, named[i])
		for j := range names {
			names[j] = xmlEscape(g.Members[j].Name)
		}
		line := groupLineOpen(g) + strings.Join(names, ", ")
		switch {
		case named[i] == len(g.Members):
		case named[i] == 0:
			line += strings.TrimPrefix(more, ", ")
		default:
			line += more
		}
		lines = append(lines, line+groupLineClose)
	}
	if shown < len(groups) {
		lines = append(lines, omittedGroupsLine(len(groups)-shown, len(entries)-skillsShown))
	}
	desc := skillToolPreamble + strings.Join(lines, "\n") + skillToolClosing
	if utf8.RuneCountInString(desc) > maxChars {
		return "", false // a budget arithmetic slip must not break the bound
	}
	return desc, true
}

// omittedGroupsLine is the comment standing for the collections that get no line.
func omittedGroupsLine(groups, skills int) string {
	return fmt.Sprintf("<!-- %d smaller collections (%d skills) not listed -->", groups, skills)
}
