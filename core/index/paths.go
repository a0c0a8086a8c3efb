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

// deriveParentPath is spec 000 §4.4's deriveParentPath: `_root` has none; an
// `_index` skill's parent is the `_index` one directory up (or `_root`); any other
// skill's parent is its own directory's `_index` (or `_root`).
func deriveParentPath(p string) (string, bool) {
	if p == core.RootPath {
		return "", false
	}
	dir := path.Dir(p)
	if path.Base(p) == core.IndexSegment {
		dir = path.Dir(dir)
	}
	if dir == "." {
		return core.RootPath, true
	}
	return dir + "/" + core.IndexSegment, true
}

// resolveParent walks derived parents up one level at a time until exists
// reports one (spec 000 §4.4, missing intermediate parents); "" when none exists.
func resolveParent(p string, exists func(string) bool) string {
	for cur, ok := deriveParentPath(p); ok; cur, ok = deriveParentPath(cur) {
		if exists(cur) {
			return cur
		}
	}
	return ""
}
