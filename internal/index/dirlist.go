package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// ListedFile is one file of a skill's directory as it was listed for a
// snapshot: what a stat said, without reading the file.
type ListedFile struct {
	// Path is relative to the skill's directory, with `/` separators.
	Path string
	// Size is the size the stat gave (of the target, for a symlink).
	Size int64
	// ModTime is the modification time the stat gave.
	ModTime time.Time
}

// dirListing is one walk of a skill's directory.
type dirListing struct {
	// realDir is the directory with its symlinks resolved, where the files were found.
	realDir string
	// files are in walk order (each directory's entries sorted by name, depth
	// first) until sortFiles sorts them by path.
	files []ListedFile
	// unportable are the files and folders left out because no skill file
	// path can name them (a backslash, a leading drive letter), with why:
	// listed, they could never be read.
	unportable []unportableName
	// onDir is called with each directory before it is read; nil for none.
	onDir func(string)
	// sub are the listings of subdirectories read already (by real path).
	sub map[string][]fs.DirEntry
}

// unportableName is one file or folder left out of a listing, and why.
type unportableName struct {
	path   string
	reason error
}

// message is the problem reported for u.
func (u unportableName) message() string {
	if errors.Is(u.reason, errControlName) || errors.Is(u.reason, errInvalidUTF8Name) {
		return "not served: " + u.reason.Error()
	}
	return fmt.Sprintf("not served: no skill file path can name it (%v); rename it", u.reason)
}

// listRealDir walks the skill directory realDir once for the files of its
// manifest and, for an Agent Skills folder, its listing: every regular file,
// and every symlink that resolves to a regular file inside the directory.
// Dot-files and dot-directories are left out, directory symlinks are not
// followed, unreadable parts are left out. realDir holds no symlink in its
// path (discovery only enters real directories below the resolved root), so
// it is not resolved again. entries, when not nil, is its listing, already
// read (sorted by name). A regular file costs one lstat (its size and time), a
// symlink its resolution and one stat. sub holds the listings of subfolders
// already read (by real path; nil for none), which are not read again. onDir,
// when not nil, is called with each directory before it is read (see
// Index.WatchDirs).
func listRealDir(realDir string, entries []fs.DirEntry, sub map[string][]fs.DirEntry, onDir func(string)) dirListing {
	l := dirListing{realDir: realDir, onDir: onDir, sub: sub}
	if entries == nil {
		entries, _ = readDir(onDir, realDir) // on an error, what was read is still walked, as WalkDir does
	}
	l.walk(realDir, "", entries)
	return l
}

// readDir is os.ReadDir after calling onDir (when not nil) with dir: a
// watcher placing its watch there sees every change made after the read.
func readDir(onDir func(string), dir string) ([]fs.DirEntry, error) {
	if onDir != nil {
		onDir(dir)
	}
	return os.ReadDir(dir)
}

// walk lists the entries of the directory p (rel is its path relative to
// realDir, "" for realDir itself), in the order of filepath.WalkDir.
func (l *dirListing) walk(p, rel string, entries []fs.DirEntry) {
	eachVisible(p, rel, entries, func(d fs.DirEntry, child, childRel string) {
		if err := badName(d.Name()); err != nil {
			l.unportable = append(l.unportable, unportableName{shownPath(childRel), err})
			return
		}
		if unportable(d.Name(), rel == "") {
			l.unportable = append(l.unportable, unportableName{childRel, confine.CheckRelPath(childRel)})
			return
		}
		if d.IsDir() {
			sub, ok := l.sub[child]
			if !ok {
				sub, _ = readDir(l.onDir, child)
			}
			l.walk(child, childRel, sub)
			return
		}
		if fi, ok := statListedFile(l.realDir, child, d); ok {
			l.files = append(l.files, ListedFile{Path: childRel, Size: fi.Size(), ModTime: fi.ModTime()})
		}
	})
}

// eachVisible calls fn, in order, for each entry of the directory p whose name
// does not start with a dot, with its path and its path relative to the walk's
// start (rel is p's, "" for the start itself). Dot entries (.git, editor swap
// files) are never skills nor skill files.
func eachVisible(p, rel string, entries []fs.DirEntry, fn func(d fs.DirEntry, child, childRel string)) {
	for _, d := range entries {
		name := d.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		fn(d, filepath.Join(p, name), childRel)
	}
}

// statListedFile is isSkillFile for a listed entry, returning what the stat
// said: a regular entry is lstat'ed, a symlink counts when it resolves to a
// regular file inside realDir, anything else does not.
func statListedFile(realDir, p string, d fs.DirEntry) (fs.FileInfo, bool) {
	switch {
	case d.Type().IsRegular():
		fi, err := d.Info()
		return fi, err == nil && fi.Mode().IsRegular()
	case d.Type()&fs.ModeSymlink != 0:
		return resolvedRegular(realDir, p)
	default:
		return nil, false
	}
}

// has reports whether rel is one of the listed files; the files must be sorted.
func (l *dirListing) has(rel string) bool { return hasListed(l.files, rel) }

// hasListed reports whether rel is the path of one of files, sorted by path.
func hasListed(files []ListedFile, rel string) bool {
	i := sort.Search(len(files), func(i int) bool { return files[i].Path >= rel })
	return i < len(files) && files[i].Path == rel
}

// unportable reports a file name no skill file path can hold (what
// confine.CheckRelPath refuses in a name): a backslash, or at the top of the
// folder (top) a leading drive letter (`c:notes.txt`). Checked on the name
// alone, without allocating, since every listed file passes through it.
func unportable(name string, top bool) bool {
	if strings.IndexByte(name, '\\') >= 0 {
		return true
	}
	c := name[0] | 0x20
	return top && len(name) >= 2 && name[1] == ':' && c >= 'a' && c <= 'z'
}
