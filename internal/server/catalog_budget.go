package server

import (
	"strings"
	"unicode/utf8"
)

// skillToolDescription renders file 002's dynamic description for entries, in
// their order, in at most maxChars characters (runes). When the entries do
// not fit whole, their descriptions are shortened first, all to the same
// longest length that fits (cut at a word, ending in "…"; at length 0 the
// description is left out); only when the names alone do not fit are the
// last entries left out, and one comment then says exactly how many and how
// to reach them (hint). A budget too small for the fixed text and that
// comment still gets both.
//
// When the names alone do not fit, one line per collection (its count and
// best-known skills, usage counting skills served) names far more of them
// than a cut list would (catalog_groups.go); the cut list stays for a budget
// too small even for that.
func skillToolDescription(entries []catalogEntry, maxChars int, hint, search string, usage map[string]int) string {
	fixed := utf8.RuneCountInString(skillToolPreamble) + utf8.RuneCountInString(skillToolClosing)
	room := maxChars - fixed
	longest := 0
	for _, e := range entries {
		longest = max(longest, utf8.RuneCountInString(e.Description))
	}
	if listCost(entries, longest) <= room {
		return render(entries, longest, 0, hint)
	}
	if listCost(entries, 0) <= room {
		lo, hi := 0, longest // listCost(lo) fits, listCost(hi) does not
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if listCost(entries, mid) <= room {
				lo = mid
			} else {
				hi = mid
			}
		}
		return render(entries, lo, 0, hint)
	}
	if desc, ok := groupedDescription(entries, maxChars, search, usage); ok {
		return desc
	}
	n, used := 0, 0 // names only, as many as fit beside the comment for the rest
	for i, e := range entries {
		cost := entryCost(e, 0)
		if i > 0 {
			cost++
		}
		reserve := 1 + utf8.RuneCountInString(omittedLine(len(entries)-i-1, hint))
		if i == len(entries)-1 {
			reserve = 0
		}
		if used+cost+reserve > room {
			break
		}
		used += cost
		n++
	}
	return render(entries[:n], 0, len(entries)-n, hint)
}

// render writes the description: entries with their descriptions cut to
// limit, then the comment for the omitted ones, if any.
func render(entries []catalogEntry, limit, omitted int, hint string) string {
	lines := make([]string, 0, len(entries)+1)
	for _, e := range entries {
		lines = append(lines, skillEntryXMLCut(e, limit))
	}
	if omitted > 0 {
		lines = append(lines, omittedLine(omitted, hint))
	}
	return skillToolPreamble + strings.Join(lines, "\n") + skillToolClosing
}

// listCost is the characters the entries take with descriptions cut to limit,
// newlines between them included.
func listCost(entries []catalogEntry, limit int) int {
	total := 0
	for i, e := range entries {
		total += entryCost(e, limit)
		if i > 0 {
			total++
		}
	}
	return total
}

// entryCost is the characters of one entry with its description cut to limit.
func entryCost(e catalogEntry, limit int) int {
	return utf8.RuneCountInString(skillEntryXMLCut(e, limit))
}

// skillEntryXMLCut renders one <skill> element with its description cut to
// limit characters (before escaping); a limit of 0 leaves the description out.
func skillEntryXMLCut(e catalogEntry, limit int) string {
	if limit == 0 && e.Description != "" {
		return "<skill>\n<name>" + xmlName(e.Name) + "</name>\n<location>" + e.Location + "</location>\n</skill>"
	}
	e.Description = cutText(e.Description, limit)
	return skillEntryXML(e)
}

// cutText shortens s to at most limit characters: whole when it fits, else
// cut at the last space within limit-1 characters (or at limit-1 when there is
// none) and ended with "…".
func cutText(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)[:max(limit-1, 0)]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}
