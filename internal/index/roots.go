package index

import (
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/core"
)

// Source labels of the standard skill roots.
const (
	// SourceSkillsDir labels the single root of Options.Root (the SKILLS_DIR setting).
	SourceSkillsDir = "SKILLS_DIR"
	// SourceProject labels a root under the working directory.
	SourceProject = "project"
	// SourceGlobal labels a root under the home directory.
	SourceGlobal = "global"
)

// Root is one skills directory of an Index. Roots are listed in precedence
// order: an earlier root wins a skill path (or an Agent Skills name) that a
// later one also holds.
type Root struct {
	// Dir is the directory, absolute or relative to the working directory.
	Dir string
	// Source labels the root for people ("SKILLS_DIR", "project", "global", …);
	// every skill found under it carries the label in core.Skill.Source.
	Source string
	// Required makes a root that does not exist, or cannot be read, fail
	// Rebuild. Otherwise a missing root is skipped silently and an unreadable
	// one with a warning. Options.Root is a required root.
	Required bool
	// Prefix, when not empty, starts the path of every skill of this root
	// (`anthropic/pdf`): several collections served side by side, none
	// shadowing another's paths. It is one path segment (ValidPrefix). A
	// prefixed skill tree's `_root.md` is the category PREFIX/_index, which
	// its skills inherit and which inherits an unprefixed root's `_root.md`.
	Prefix string
}

// ValidPrefix reports whether p can be a Root's Prefix: one path segment of
// letters, digits, `.`, `_` and `-`, starting with a letter or a digit (not
// a category's `_` nor a hidden folder's `.`).
func ValidPrefix(p string) bool {
	if p == "" || len(p) > 64 {
		return false
	}
	for i, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && (r == '.' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// prefixed is the path of the skill at p (relative to its root) under the
// root's prefix: PREFIX/p, and PREFIX/_index for the root's `_root`.
func prefixed(prefix, p string) string {
	if prefix == "" {
		return p
	}
	if p == core.RootPath {
		return prefix + "/" + core.IndexSegment
	}
	return prefix + "/" + p
}

// standardRoot is one of the well-known locations, relative to cwd or home.
type standardRoot struct {
	underHome bool
	rel       string
}

// standardRoots are the locations DefaultRoots looks in, in precedence order:
// the project's before the user's, the vendor-neutral names before the
// Claude-specific one.
var standardRoots = []standardRoot{
	{false, ".agents/skills"},
	{false, ".agent/skills"},
	{false, ".claude/skills"},
	{false, "skills"},
	{true, ".agents/skills"},
	{true, ".agent/skills"},
	{true, ".claude/skills"},
}

// CandidateRoots returns every standard skills location, in precedence order,
// whether it exists or not (for a "looked in …" message): cwd/.agents/skills,
// cwd/.agent/skills, cwd/.claude/skills and cwd/skills (source "project"), then
// home/.agents/skills, home/.agent/skills and home/.claude/skills (source
// "global"). An empty cwd or home contributes nothing; a location reached twice
// (cwd equal to home) is listed once, with its first label.
func CandidateRoots(cwd, home string) []Root {
	var out []Root
	seen := map[string]bool{}
	for _, sr := range standardRoots {
		base, source := cwd, SourceProject
		if sr.underHome {
			base, source = home, SourceGlobal
		}
		if base == "" {
			continue
		}
		dir := filepath.Join(base, filepath.FromSlash(sr.rel))
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		out = append(out, Root{Dir: dir, Source: source})
	}
	return out
}

// DefaultRoots returns the CandidateRoots that exist as directories (symlinks
// to directories included), in the same order.
func DefaultRoots(cwd, home string) []Root {
	var out []Root
	for _, r := range CandidateRoots(cwd, home) {
		if fi, err := os.Stat(r.Dir); err == nil && fi.IsDir() {
			out = append(out, r)
		}
	}
	return out
}

// rootsOf turns opts into the absolute roots of an Index: opts.Roots when set,
// else opts.Root as a single required root labelled SourceSkillsDir.
func rootsOf(opts Options) []Root {
	roots := opts.Roots
	if len(roots) == 0 {
		roots = []Root{{Dir: opts.Root, Source: SourceSkillsDir, Required: true}}
	}
	out := make([]Root, len(roots))
	for i, r := range roots {
		if abs, err := filepath.Abs(r.Dir); err == nil {
			r.Dir = abs
		}
		out[i] = r
	}
	return out
}
