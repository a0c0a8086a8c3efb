package index

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// globalHeader is the section header of `_root` (spec 000 §6.2).
const globalHeader = "GLOBAL RULES"

// Content returns the text get_skill serves for s (spec 000 §6.2). With inherit
// true it is one section per chain element, root first, each
// `=== HEADER (from FILE) ===`, a blank line and the trimmed content, sections
// separated by a blank line. With inherit false it is s's trimmed content alone.
func (sn *Snapshot) Content(s *core.Skill) string {
	if !s.Inherit {
		return strings.TrimSpace(s.Content)
	}
	chain := sn.Chain(s)
	sections := make([]string, len(chain))
	for i, c := range chain {
		sections[i] = "=== " + sectionHeader(c.Path) + " (from " + c.FilePath + ") ===\n\n" + strings.TrimSpace(c.Content)
	}
	return strings.Join(sections, "\n\n")
}

// sectionHeader renders a skill path as a §6.2 header: `_root` is GLOBAL RULES;
// any other path is uppercased, its `_INDEX` segments dropped, the rest joined
// with ` > ` and runs of whitespace collapsed to one space.
func sectionHeader(path string) string {
	if path == core.RootPath {
		return globalHeader
	}
	segs := strings.Split(strings.ToUpper(path), "/")
	kept := segs[:0]
	for _, seg := range segs {
		if seg != "_INDEX" {
			kept = append(kept, seg)
		}
	}
	return strings.Join(strings.Fields(strings.Join(kept, " > ")), " ")
}

// ContentLen returns len(sn.Content(s)) without building the text.
func (sn *Snapshot) ContentLen(s *core.Skill) int {
	if !s.Inherit {
		return len(strings.TrimSpace(s.Content))
	}
	n := 0
	for i, c := range sn.Chain(s) {
		if i > 0 {
			n += len("\n\n")
		}
		n += len("=== ") + len(sectionHeader(c.Path)) + len(" (from ") + len(c.FilePath) + len(") ===\n\n") + len(strings.TrimSpace(c.Content))
	}
	return n
}
