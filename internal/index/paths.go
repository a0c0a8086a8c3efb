package index

import (
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// skillPath derives the skill path of spec 000 §4.3 from a file path relative to
// its root: `/` separators (Windows `\` included) and no `.md` extension.
func skillPath(rel string) string {
	return strings.TrimSuffix(strings.ReplaceAll(rel, `\`, "/"), ".md")
}

// skillName is the last path segment that is not `_index` (`ui/_index` → `ui`,
// `ui/react/auth` → `auth`, `_root` → `_root`); a lone `_index` keeps its name.
func skillName(p string) string {
	for {
		seg := p
		i := strings.LastIndexByte(p, '/')
		if i >= 0 {
			seg, p = p[i+1:], p[:i]
		}
		if seg != core.IndexSegment {
			return seg
		}
		if i < 0 {
			return core.IndexSegment
		}
	}
}

// resolveParent walks derived parents up one level at a time until one is a
// spec-000 skill of byPath (spec 000 §4.4's deriveParentPath: `_root` has
// none; an `_index` skill's parent is the `_index` one directory up, or
// `_root`; any other skill's parent is its own directory's `_index`, or
// `_root`; missing intermediate parents are skipped) and
// returns that skill's path; "" when none exists. Each candidate is built in
// a buffer and looked up without a string of its own (at 10,000 skills one
// allocation per skill), and the path returned is the parent's own.
func resolveParent(p string, byPath map[string]*core.Skill) string {
	if p == core.RootPath {
		return ""
	}
	dir := path.Dir(p)
	if path.Base(p) == core.IndexSegment {
		dir = path.Dir(dir)
	}
	var arr [128]byte
	for ; ; dir = path.Dir(dir) { // the parent of dir/_index is path.Dir(dir)/_index
		var s *core.Skill
		if dir == "." {
			s = byPath[core.RootPath]
		} else {
			buf := append(append(arr[:0], dir...), "/"+core.IndexSegment...)
			s = byPath[string(buf)]
		}
		if s != nil && s.Format != core.FormatAgentSkill {
			return s.Path
		}
		if dir == "." {
			return ""
		}
	}
}
