package index

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// globalHeader is the section header of `_root` (spec 000 §6.2).
const globalHeader = "GLOBAL RULES"

// Content returns the text get_skill serves for s (spec 000 §6.2). With inherit
// true it is one section per chain element, root first, each
// `=== HEADER (from FILE) ===`, a blank line and the trimmed body, sections
// separated by a blank line. With inherit false it is s's trimmed body alone.
// The bodies are read through Body, whose error it returns.
func (sn *Snapshot) Content(s *core.Skill) (string, error) {
	if !s.Inherit {
		body, err := sn.Body(s)
		return strings.TrimSpace(body), err
	}
	chain, headers := sn.sections(s)
	var b strings.Builder
	b.Grow(contentLen(chain, headers))
	for i, c := range chain {
		body, err := sn.Body(c)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("=== ")
		b.WriteString(headers[i])
		b.WriteString(" (from ")
		b.WriteString(c.FilePath)
		b.WriteString(") ===\n\n")
		b.WriteString(strings.TrimSpace(body))
	}
	return b.String(), nil
}

// sections returns s's inheritance chain and the section header of each.
func (sn *Snapshot) sections(s *core.Skill) ([]*core.Skill, []string) {
	chain := sn.Chain(s)
	headers := make([]string, len(chain))
	for i, c := range chain {
		headers[i] = sectionHeader(c.Path)
	}
	return chain, headers
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

// ContentLen returns the length of sn.Content(s) from the bodies as indexed,
// without reading them.
func (sn *Snapshot) ContentLen(s *core.Skill) int {
	if !s.Inherit {
		return s.Body.TrimmedSize
	}
	return contentLen(sn.sections(s))
}

// contentLen is the length of the sections of chain under headers, bodies as
// indexed.
func contentLen(chain []*core.Skill, headers []string) int {
	n := 0
	for i, c := range chain {
		if i > 0 {
			n += len("\n\n")
		}
		n += len("=== ") + len(headers[i]) + len(" (from ") + len(c.FilePath) + len(") ===\n\n") + c.Body.TrimmedSize
	}
	return n
}
