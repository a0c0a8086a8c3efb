package index

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// discovered is one skill file found under a root.
type discovered struct {
	// Rel is the path relative to the root, `/` separators (`ui/react/auth.md`,
	// `tools/git/SKILL.md`); under a followed directory symlink, the path
	// through the link.
	Rel string
	// Abs is the absolute path of the file: under the root as given (not
	// symlink-resolved) for what the walk found in the root itself, the
	// resolved path for what it found through a symlink (resolved once, at
	// discovery: every later read stays in the resolved folder).
	Abs string
	// AgentDir is the folder of an Agent Skill relative to the root (`tools/git`),
	// "" for a spec-000 tree file.
	AgentDir string
	// ResourceDir is the resource directory of a tree file (spec 000 §4.5): Abs
	// without `.md` when the listing beside the file holds that name as a real
	// directory (a symlink is not one), else "".
	ResourceDir string
	// RealDir is the skill's directory (the Agent Skills folder, or the
	// resource directory), symlinks resolved. "" when there is none.
	RealDir string
	// entries is the listing of an Agent Skills folder that the walk read to
	// find its SKILL.md, so the folder's own walk need not read it again;
	// sub the listings of the folders below it that the walk read looking for
	// nested skills (by real path), which that walk need not read again either.
	entries []fs.DirEntry
	sub     map[string][]fs.DirEntry
}

// skippedDirs are the folders discovery never enters: version control and
// package manager metadata, never skills.
var skippedDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// saysSkipped are the skipped folders discovery says it skips: one may hold
// a SKILL.md someone expects served (an installed package's); version
// control's folders never do.
var saysSkipped = map[string]bool{"node_modules": true}

// skippedDir says, once per rebuild at debug level and as a validate note,
// that the folder rel was not searched.
func (w *walker) skippedDir(rel string) {
	const msg = "not searched for skills: it holds installed packages; a skill inside it is not served"
	w.b.logger.Debug(rel + "/: " + msg)
	w.b.noteLine(kindOther, rel+"/", 1, SeverityNote, msg, "")
}

// discoverEach walks root for skill files (spec 000 §4.1 and the Agent Skills
// layouts people use):
//
//   - a folder holding a file named exactly SKILL.md is an Agent Skill; its
//     other files are its content (Markdown included), but a SKILL.md in one
//     of its subfolders is a skill of its own;
//   - outside Agent Skills folders every `.md` file is a candidate tree skill,
//     except inside a skill resource directory (a directory `X/` beside `X.md`)
//     and in a Claude Code plugin's commands/, agents/ and hooks/ folders
//     (beside its .claude-plugin/), which are counted as not skills;
//   - hidden folders are searched (`skills/.curated/`), but not .git, .hg,
//     .svn and node_modules; hidden files are not skills;
//   - symlinks are followed once the real tree is walked: a directory symlink
//     is resolved and walked under the link's path, a SKILL.md symlink read
//     from its target, whose folder is the skill's; a link to something the
//     walk already found (a mirror tree such as `.codex/skills/…`), a dangling
//     link, a loop and a link to / are reported and not followed. No file is
//     handed out twice.
//
// A SKILL.md at the root itself is skipped with a warning. Unreadable
// subdirectories are skipped with a warning; an unreadable root is an error,
// before any file is found. Each file is handed to found as the walk finds it.
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
	entries, err := readDir(b.onDir, realRoot)
	if err != nil {
		return fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	w := &walker{b: b, root: root, realRoot: realRoot, found: found, visited: map[string]bool{realRoot: true}, served: map[string]bool{}, pluginParts: map[string]bool{}}
	w.walk(realRoot, "", entries, false)
	w.followLinks()
	return nil
}

// walker is one discovery walk: the root as given, its resolved path, where
// the skill files found go, and the symlinks left for after the real tree.
type walker struct {
	b        *builder
	root     string
	realRoot string
	found    func(discovered)
	visited  map[string]bool // real directories walked
	served   map[string]bool // real paths of the skill files handed out
	pending  []pendingLink   // symlinks to follow once the real tree is walked
	// pluginParts are the real folders of Claude Code plugins' commands/,
	// agents/ and hooks/ (beside a .claude-plugin/ folder), and their
	// subfolders: their Markdown is never a skill.
	pluginParts map[string]bool
	// sub, while the walk is inside an Agent Skills folder, collects the
	// listings it reads there (discovered.sub); nil elsewhere.
	sub map[string][]fs.DirEntry
}

// pluginPartNames are the folders of a Claude Code plugin whose Markdown
// files are commands, subagents and hooks, not skills.
var pluginPartNames = map[string]bool{"commands": true, "agents": true, "hooks": true}

// pendingLink is a symlink met by the walk: a directory link, a tree file
// link, or the SKILL.md link of the folder p.
type pendingLink struct {
	p, rel string // the link's path (for a SKILL.md link: its folder's) and its path relative to the root
	kind   int
}

// Kinds of pendingLink.
const (
	linkDir = iota
	linkTreeFile
	linkSkillFile
)

// walk visits the entries of the directory p (rel is its path relative to
// the root, "" for the root), sorted by name, depth first. Inside an Agent
// Skills folder (inSkill) only subfolders holding a SKILL.md are skills.
func (w *walker) walk(p, rel string, entries []fs.DirEntry, inSkill bool) {
	if w.b.cancelled() {
		return
	}
	for _, d := range entries {
		name := d.Name()
		if !d.IsDir() && skipsFile(d, name, inSkill) {
			continue // most entries: no path to build
		}
		child := filepath.Join(p, name)
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if err := badName(name); err != nil {
			if !inSkill { // inside a skill folder, its listing reports it
				w.b.skip(shownPath(childRel), 1, err)
			}
			continue
		}
		switch {
		case d.IsDir():
			if !skippedDirs[name] {
				w.dir(child, childRel, entries, inSkill)
			} else if saysSkipped[name] {
				w.skippedDir(childRel)
			}
		case d.Type()&fs.ModeSymlink != 0:
			// outside a skill folder (skipsFile passed over those inside,
			// which are content: the folder's listing follows file links)
			w.pending = append(w.pending, pendingLink{p: child, rel: childRel, kind: linkDir})
		case childRel == agentSkillFile:
			w.b.skip(childRel, 1, fmt.Errorf("a SKILL.md at the root of a skills directory is not a skill: put it in a folder named after the skill"))
		case w.pluginParts[p]:
			w.served[child] = true // accounted for: a link to it is a mirror, not a skill
			w.b.noteLine(kindNotSkill, childRel, 1, SeverityWarning,
				"not a skill: a Claude Code plugin's commands, subagents and hooks are not skills", "")
		default:
			w.tree(child, childRel, entries)
		}
	}
}

// skipsFile reports whether walk does nothing with the entry d, not a
// directory, named name: a hidden file (never a skill), a symlink inside a
// skill folder, or anything but a regular `.md` file outside one.
func skipsFile(d fs.DirEntry, name string, inSkill bool) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	if d.Type()&fs.ModeSymlink != 0 {
		return inSkill
	}
	return inSkill || !strings.HasSuffix(name, ".md") || !d.Type().IsRegular()
}

// tree hands out the tree file p (regular, or a symlink's target) found in a
// listing of its folder.
func (w *walker) tree(p, rel string, siblings []fs.DirEntry) {
	if w.served[p] {
		return
	}
	w.served[p] = true
	f := discovered{Rel: rel, Abs: w.absOf(p, rel)}
	if hasDir(siblings, strings.TrimSuffix(filepath.Base(rel), ".md")) {
		f.ResourceDir, f.RealDir = strings.TrimSuffix(f.Abs, ".md"), strings.TrimSuffix(p, ".md")
	}
	w.found(f)
}

// dir visits the directory p found in a listing of its parent (siblings): a
// resource directory is left out, an Agent Skills folder found, any other
// directory walked.
func (w *walker) dir(p, rel string, siblings []fs.DirEntry, inSkill bool) {
	if w.pluginParts[filepath.Dir(p)] || pluginPartNames[filepath.Base(p)] && hasDir(siblings, ".claude-plugin") {
		w.pluginParts[p] = true
	}
	if !inSkill && w.hasSkillFile(filepath.Dir(p), siblings, filepath.Base(p)+".md") {
		if isSkillFile(w.realRoot, filepath.Join(p, agentSkillFile)) {
			w.b.warn(rel+"/"+agentSkillFile, 1, SeverityWarning,
				fmt.Sprintf("not indexed: %s/ is the resource directory of %s.md, so its files are assets of that skill", rel, rel))
		}
		return // a resource directory: its .md files are assets
	}
	w.enter(p, rel, inSkill)
}

// enter lists and walks the real directory p (reached under rel).
func (w *walker) enter(p, rel string, inSkill bool) {
	w.visited[p] = true
	entries, err := readDir(w.b.onDir, p)
	if err != nil {
		if isSkillFile(w.realRoot, filepath.Join(p, agentSkillFile)) {
			w.foundAgent(p, rel, entries, nil) // listing refused, but its SKILL.md is there
			return
		}
		w.b.skip(rel, 1, err)
	} else if w.sub != nil {
		w.sub[p] = entries // for the listing of the Agent Skills folder around it
	}
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= agentSkillFile })
	if i < len(entries) && entries[i].Name() == agentSkillFile {
		switch t := entries[i].Type(); {
		case t.IsRegular():
			// An Agent Skills folder: everything inside is its content. Its
			// subfolders are walked first, for nested skills, and what that
			// walk read is handed out with it for its listing.
			outer := w.sub
			w.sub = map[string][]fs.DirEntry{}
			w.walk(p, rel, entries, true)
			sub := w.sub
			w.sub = outer
			if outer != nil {
				maps.Copy(outer, sub)
			}
			w.foundAgent(p, rel, entries, sub)
			return
		case t&fs.ModeSymlink != 0:
			w.pending = append(w.pending, pendingLink{p: p, rel: rel, kind: linkSkillFile})
			w.walk(p, rel, entries, true)
			return
		}
	}
	w.walk(p, rel, entries, inSkill)
}

// foundAgent records the SKILL.md of the Agent Skills folder rel, at p
// (resolved), whose listing is entries, and those of its subfolders sub.
func (w *walker) foundAgent(p, rel string, entries []fs.DirEntry, sub map[string][]fs.DirEntry) {
	file := filepath.Join(p, agentSkillFile)
	if w.served[file] {
		return
	}
	w.served[file] = true
	w.found(discovered{
		Rel: rel + "/" + agentSkillFile, Abs: w.absOf(file, rel+"/"+agentSkillFile), AgentDir: rel,
		RealDir: p, entries: entries, sub: sub,
	})
}

// absOf is the absolute path of the real file p reached under rel: under the
// root as given when p lies in the root, else p itself (reached through a
// symlink, resolved once).
func (w *walker) absOf(p, rel string) string {
	if confine.Within(w.realRoot, p) {
		return filepath.Join(w.root, filepath.FromSlash(rel))
	}
	return p
}

// followLinks follows the symlinks the walk met, in the order met (and those
// met while following them): a link to what the walk has already found is a
// mirror, reported and left; anything new is walked under the link's path.
func (w *walker) followLinks() {
	for i := 0; i < len(w.pending); i++ {
		l := w.pending[i]
		if l.kind == linkSkillFile {
			w.followSkillFile(l)
			continue
		}
		target, err := filepath.EvalSymlinks(l.p)
		if err != nil {
			w.link(l.rel, "dangling symlink: "+err.Error())
			continue
		}
		fi, err := os.Stat(target)
		if err != nil {
			w.link(l.rel, "unreadable symlink target: "+err.Error())
			continue
		}
		if !fi.IsDir() {
			w.followFile(l, target, fi)
			continue
		}
		switch {
		case target == string(filepath.Separator):
			w.refuse(l.rel, "a symlink to / is not followed")
		case confine.Within(target, w.realRoot) || confine.Within(target, filepath.Dir(l.p)):
			w.refuse(l.rel, fmt.Sprintf("a symlink to %s, which holds it, is a loop; not followed", target))
		case w.visited[target] || confine.Within(w.realRoot, target):
			w.link(l.rel, fmt.Sprintf("mirror: a symlink to %s, which is indexed from its own path", target))
		default:
			w.enter(target, l.rel, false)
		}
	}
}

// followFile follows a symlink to a regular file: outside skill folders, a
// `.md` file whose target is not served yet is a tree skill (its target must
// lie in the root, as spec 000 §4.1 asks).
func (w *walker) followFile(l pendingLink, target string, fi fs.FileInfo) {
	switch {
	case !strings.HasSuffix(l.rel, ".md") || !fi.Mode().IsRegular():
	case w.served[target]:
		w.link(l.rel, "mirror: a symlink to "+target+", which is indexed from its own path")
	case !confine.Within(w.realRoot, target):
		w.link(l.rel, "a tree skill symlink leading out of the skills directory is not followed")
	case l.rel == agentSkillFile:
	default:
		parent, _ := readDir(w.b.onDir, filepath.Dir(l.p))
		w.served[target] = true
		f := discovered{Rel: l.rel, Abs: w.absOf(l.p, l.rel)}
		if hasDir(parent, strings.TrimSuffix(filepath.Base(l.rel), ".md")) {
			f.ResourceDir, f.RealDir = strings.TrimSuffix(f.Abs, ".md"), strings.TrimSuffix(l.p, ".md")
		}
		w.found(f)
	}
}

// followSkillFile follows the SKILL.md symlink of the folder l.p: resolved
// once, read from its target. When the target is itself a SKILL.md, its
// folder is the skill's (every later read stays there); otherwise the
// folder holding the link is.
func (w *walker) followSkillFile(l pendingLink) {
	link := filepath.Join(l.p, agentSkillFile)
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		w.link(l.rel+"/"+agentSkillFile, "dangling symlink: "+err.Error())
		return
	}
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() {
		w.link(l.rel+"/"+agentSkillFile, "a SKILL.md symlink to something other than a regular file is not followed")
		return
	}
	if w.served[target] {
		w.link(l.rel+"/"+agentSkillFile, "mirror: a symlink to "+target+", which is indexed from its own path")
		return
	}
	w.served[target] = true
	dir, abs := filepath.Dir(target), target
	if filepath.Base(target) != agentSkillFile { // SKILL.md → notes.md: the folder holding the link is the skill's
		dir, abs = l.p, w.absOf(link, l.rel+"/"+agentSkillFile)
	}
	entries, _ := readDir(w.b.onDir, dir)
	w.found(discovered{Rel: l.rel + "/" + agentSkillFile, Abs: abs, AgentDir: l.rel, RealDir: dir, entries: entries})
}

// link reports a symlink that is not followed, counted at start-up.
func (w *walker) link(rel, message string) {
	w.b.noteLine(kindLink, rel, 1, SeverityWarning, "not followed: "+message, rel+": "+message)
}

// refuse reports a symlink refused as dangerous (a loop, /): always logged.
func (w *walker) refuse(rel, message string) {
	w.b.logger.Warn(textsafe.Escape(rel + ": " + message))
	w.b.noteLine(kindLink, rel, 1, SeverityWarning, "not followed: "+message, "")
}

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
	if err != nil || !confine.Within(realDir, target) {
		return nil, false
	}
	fi, err := os.Stat(target)
	return fi, err == nil && fi.Mode().IsRegular()
}
