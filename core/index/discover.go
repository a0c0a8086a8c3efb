package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/sandbox"
)

// discovered is one skill file found under a root.
type discovered struct {
	// Rel is the path relative to the root, `/` separators (`ui/react/auth.md`,
	// `tools/git/SKILL.md`).
	Rel string
	// Abs is the absolute path, under the root as given (not symlink-resolved).
	Abs string
	// AgentDir is the folder of an Agent Skill relative to the root (`tools/git`),
	// "" for a spec-000 tree file.
	AgentDir string
	// ResourceDir is the resource directory of a tree file (spec 000 §4.5): Abs
	// without `.md` when the listing beside the file holds that name as a real
	// directory (a symlink is not one), else "".
	ResourceDir string
	// RealDir is the skill's directory (the Agent Skills folder, or the
	// resource directory) under the symlink-resolved root: the walk only enters
	// real directories, so it holds no symlink. "" when there is none.
	RealDir string
	// entries is the listing of an Agent Skills folder that the walk read to
	// find its SKILL.md, so the folder's own walk need not read it again.
	entries []fs.DirEntry
}

// discoverEach walks root for skill files (spec 000 §4.1): `.md` files, skipping
// dot-files and dot-directories, skill resource directories (a directory `X/`
// beside `X.md`), and directory symlinks. A folder holding a file named exactly
// SKILL.md is an Agent Skill: its SKILL.md is found and nothing below it is
// walked (its files are its content, never other skills). A SKILL.md at the
// root itself is skipped with a warning. A symlinked `.md` file counts only when
// it resolves to a regular file inside root. Unreadable subdirectories are
// skipped with a warning; an unreadable root is an error, before any file is
// found. Each file is handed to found as the walk finds it, in walk order.
//
// Each directory is listed once, and what the listing says (a regular `X.md`
// beside `X/`, a regular SKILL.md inside a folder, the resource directory `X/`
// of a tree file `X.md`) is taken from it without a further stat; only
// symlinks are resolved one by one.
func (b *builder) discoverEach(root string, found func(discovered)) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	fi, err := os.Stat(realRoot)
	if err != nil {
		return fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("reading skills directory %s: not a directory", root)
	}
	entries, err := os.ReadDir(realRoot)
	if err != nil {
		return fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	w := &walker{b: b, root: root, realRoot: realRoot, found: found}
	w.walk(realRoot, "", entries)
	return nil
}

// walker is one discovery walk: the root as given, its resolved path, and
// where the skill files found go.
type walker struct {
	b        *builder
	root     string
	realRoot string
	found    func(discovered)
}

// walk visits the entries of the directory p (under realRoot; rel is its path
// relative to the root, "" for the root), sorted by name, depth first.
func (w *walker) walk(p, rel string, entries []fs.DirEntry) {
	eachVisible(p, rel, entries, func(d fs.DirEntry, child, childRel string) {
		name := d.Name()
		if d.IsDir() {
			w.dir(child, childRel, entries)
			return
		}
		if childRel == agentSkillFile {
			if isSkillFile(w.realRoot, child) {
				w.b.skip(childRel, 1, fmt.Errorf("a SKILL.md at the root of a skills directory is not a skill: put it in a folder named after the skill"))
			}
			return
		}
		if strings.HasSuffix(name, ".md") && w.isSkillEntry(child, d) {
			f := discovered{Rel: childRel, Abs: w.abs(childRel)}
			if hasDir(entries, strings.TrimSuffix(name, ".md")) {
				f.ResourceDir, f.RealDir = strings.TrimSuffix(f.Abs, ".md"), strings.TrimSuffix(child, ".md")
			}
			w.found(f)
		}
	})
}

// dir visits the directory p found in a listing of its parent (siblings): a
// resource directory is left out, an Agent Skills folder found, any other
// directory walked.
func (w *walker) dir(p, rel string, siblings []fs.DirEntry) {
	if w.hasSkillFile(filepath.Dir(p), siblings, filepath.Base(p)+".md") {
		if isSkillFile(w.realRoot, filepath.Join(p, agentSkillFile)) {
			w.b.warn(rel+"/"+agentSkillFile, 1, SeverityWarning,
				fmt.Sprintf("not indexed: %s/ is the resource directory of %s.md, so its files are assets of that skill", rel, rel))
		}
		return // a resource directory: its .md files are assets
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		if isSkillFile(w.realRoot, filepath.Join(p, agentSkillFile)) {
			w.foundAgent(p, rel, entries) // listing refused, but its SKILL.md is there
			return
		}
		w.b.skip(rel, 1, err)
	}
	if w.hasSkillFile(p, entries, agentSkillFile) {
		w.foundAgent(p, rel, entries) // an Agent Skills folder: everything inside is its content
		return
	}
	w.walk(p, rel, entries)
}

// foundAgent records the SKILL.md of the Agent Skills folder rel, at p under
// the resolved root, whose listing is entries.
func (w *walker) foundAgent(p, rel string, entries []fs.DirEntry) {
	w.found(discovered{
		Rel: rel + "/" + agentSkillFile, Abs: filepath.Join(w.abs(rel), agentSkillFile), AgentDir: rel,
		RealDir: p, entries: entries,
	})
}

// abs is the absolute path of rel under the root as given (not symlink-resolved).
func (w *walker) abs(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// hasDir reports whether the listing entries (sorted by name) holds name as a
// directory; a symlink to a directory is not one.
func hasDir(entries []fs.DirEntry, name string) bool {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= name })
	return i < len(entries) && entries[i].Name() == name && entries[i].IsDir()
}

// hasSkillFile reports whether the listing entries of the directory dir holds
// name as a regular file, or as a symlink to a regular file inside the root.
func (w *walker) hasSkillFile(dir string, entries []fs.DirEntry, name string) bool {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= name })
	if i == len(entries) || entries[i].Name() != name {
		return false
	}
	return w.isSkillEntry(filepath.Join(dir, name), entries[i])
}

// isSkillEntry is isSkillFile for a listed entry: its type says regular or
// not; only a symlink needs resolving.
func (w *walker) isSkillEntry(p string, d fs.DirEntry) bool {
	switch {
	case d.Type().IsRegular():
		return true
	case d.Type()&fs.ModeSymlink != 0:
		_, ok := resolvedRegular(w.realRoot, p)
		return ok
	default:
		return false
	}
}

// isSkillFile reports whether p is a regular file, or a symlink to a regular file
// that stays inside realRoot.
func isSkillFile(realRoot, p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		return true
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	_, ok := resolvedRegular(realRoot, p)
	return ok
}

// resolvedRegular resolves the symlink p and reports whether it leads to a
// regular file inside realDir, with that file's stat.
func resolvedRegular(realDir, p string) (fs.FileInfo, bool) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil || !sandbox.Within(realDir, target) {
		return nil, false
	}
	fi, err := os.Stat(target)
	return fi, err == nil && fi.Mode().IsRegular()
}
