package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// WriteRootsEnv names the operator's list of write roots: the directories
// under which a script run's working directory (run_script's cwd) may lie,
// for every runner.
const WriteRootsEnv = "SKILLS_SCRIPTS_WRITE_ROOTS"

// Protected is a directory a write root may neither hold nor lie inside: the
// server's state directory, a skills directory, the directory of the
// server's executable. A script free to write there could rewrite what the
// server trusts.
type Protected struct {
	// Dir is the directory (absolute; it need not exist yet).
	Dir string
	// What names it in errors, e.g. "the state directory (SKILLS_STATE_DIR)".
	What string
}

// WorkDirs decides where script runs work, the same way for every runner: a
// run given a cwd works there only when the cwd lies under one of the
// operator's write roots (WriteRootsEnv); a run without one works in a fresh
// scratch directory of its own, removed after the run. A nil *WorkDirs has
// no write roots and makes scratch directories under os.TempDir().
// It is immutable and safe for concurrent use.
type WorkDirs struct {
	roots   []writeRoot
	scratch string // base of the scratch directories; "" means os.TempDir()
}

// writeRoot is one write root as the operator spelled it (cleaned) and with
// its symlinks resolved.
type writeRoot struct{ spelled, real string }

// SplitWriteRoots splits the value of WriteRootsEnv on the list separator
// (":" on Unix), dropping empty entries.
func SplitWriteRoots(value string) []string {
	var roots []string
	for _, r := range filepath.SplitList(value) {
		if r != "" {
			roots = append(roots, r)
		}
	}
	return roots
}

// ScratchBase is where a server whose state lives in stateDir makes the
// scratch directories of its runs: stateDir/scratch. Every directory above it
// belongs to the server's user (never a world-writable /tmp), so no other
// user can plant a program that a tool looking upwards from its working
// directory would run (npx finds node_modules/.bin in any parent).
func ScratchBase(stateDir string) string { return filepath.Join(stateDir, "scratch") }

// NewWorkDirs checks the operator's write roots; scratchBase (absolute, or
// "" for os.TempDir()) is where NewScratch makes the scratch directories. A
// write root must be
// an absolute path naming an existing directory other than the file system's
// root, and must neither hold nor lie inside a protected directory (both
// compared with their symlinks resolved). Each error names the root and
// WriteRootsEnv.
func NewWorkDirs(roots []string, scratchBase string, protected []Protected) (*WorkDirs, error) {
	w := &WorkDirs{scratch: scratchBase}
	for _, root := range roots {
		r, err := checkWriteRoot(root, protected)
		if err != nil {
			return nil, err
		}
		w.roots = append(w.roots, r)
	}
	if scratchBase != "" && !filepath.IsAbs(scratchBase) {
		return nil, fmt.Errorf("scratch directory %q: not an absolute path", scratchBase)
	}
	return w, nil
}

func checkWriteRoot(root string, protected []Protected) (writeRoot, error) {
	bad := func(format string, args ...any) (writeRoot, error) {
		return writeRoot{}, fmt.Errorf("%s: write root %q %s", WriteRootsEnv, root, fmt.Sprintf(format, args...))
	}
	if strings.ContainsRune(root, 0) {
		return bad("holds a NUL byte")
	}
	if !filepath.IsAbs(root) {
		return bad("is a relative path: list absolute directories")
	}
	spelled := filepath.Clean(root)
	fi, err := os.Stat(spelled)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bad("does not exist: create it, or leave it out")
	case err != nil:
		return bad("cannot be used: %v", err)
	case !fi.IsDir():
		return bad("is not a directory")
	}
	real, err := filepath.EvalSymlinks(spelled)
	if err != nil {
		return bad("cannot be resolved: %v", err)
	}
	if filepath.Dir(real) == real {
		return bad("is the root of the file system: scripts could write anywhere the server's user can")
	}
	for _, p := range protected {
		if p.Dir == "" {
			continue
		}
		dir := ResolvedAsFarAsExists(p.Dir)
		switch {
		case Within(real, dir):
			return bad("holds %s (%s): a script could rewrite it", p.What, p.Dir)
		case Within(dir, real):
			return bad("lies inside %s (%s): a script could rewrite it", p.What, p.Dir)
		}
	}
	return writeRoot{spelled: spelled, real: real}, nil
}

// ResolvedAsFarAsExists is dir, absolute and cleaned, with the symlinks of
// its deepest existing ancestor resolved (the directory need not exist yet).
func ResolvedAsFarAsExists(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := evalExisting(abs); err == nil {
		return real
	}
	return abs
}

// Roots returns the write roots with their symlinks resolved, in the
// operator's order.
func (w *WorkDirs) Roots() []string {
	if w == nil {
		return nil
	}
	out := make([]string, len(w.roots))
	for i, r := range w.roots {
		out[i] = r.real
	}
	return out
}

// Dir checks cwd, the working directory a caller asked for, against the
// write roots and returns it with its symlinks resolved, so the run works in
// the directory that was checked. cwd must be absolute, lie under a write
// root (as spelled, and once its symlinks are resolved) and name an existing
// directory. Every error wraps core.ErrInvalidArgument, names cwd and says
// what to do; one for a cwd outside the write roots names WriteRootsEnv and
// says nothing of what lies outside them (not even whether it exists).
func (w *WorkDirs) Dir(cwd string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("working directory (cwd) %q refused: %s: %w", cwd, fmt.Sprintf(format, args...), core.ErrInvalidArgument)
	}
	if strings.ContainsRune(cwd, 0) {
		return refuse("holds a NUL byte")
	}
	if w == nil || len(w.roots) == 0 {
		return refuse("%s is not set, so no cwd is allowed: leave cwd out to run in a fresh scratch directory "+
			"(the operator may list directories where scripts may work in %s)", WriteRootsEnv, WriteRootsEnv)
	}
	if !filepath.IsAbs(cwd) {
		return refuse("not an absolute path: give a directory under %s (%s), or leave cwd out to run in a fresh scratch directory",
			WriteRootsEnv, w.rootList())
	}
	clean := filepath.Clean(cwd)
	if !w.under(clean, true) {
		return refuse("outside the write roots %s (%s): leave cwd out to run in a fresh scratch directory", WriteRootsEnv, w.rootList())
	}
	fi, err := os.Stat(clean)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return refuse("does not exist")
	case err != nil:
		return refuse("%v", err)
	case !fi.IsDir():
		return refuse("not a directory")
	}
	real, err := filepath.EvalSymlinks(clean)
	if err != nil {
		return refuse("%v", err)
	}
	if !w.under(real, false) {
		return refuse("leads outside the write roots %s (%s) through a symlink", WriteRootsEnv, w.rootList())
	}
	return real, nil
}

// under reports whether dir lies under a write root: its resolved path, or
// also its spelling when spelled is set.
func (w *WorkDirs) under(dir string, spelled bool) bool {
	for _, r := range w.roots {
		if Within(r.real, dir) || (spelled && Within(r.spelled, dir)) {
			return true
		}
	}
	return false
}

func (w *WorkDirs) rootList() string {
	names := make([]string, len(w.roots))
	for i, r := range w.roots {
		names[i] = r.spelled
	}
	return strings.Join(names, ":")
}

// Scratch is the fresh working directory of one run.
type Scratch struct {
	base, name string
}

// NewScratch creates a fresh, private (0700) directory for one run under the
// scratch base, which it creates (0700, with its parents) when missing: a
// server whose home is read-only fails only the runs that need one.
func (w *WorkDirs) NewScratch() (*Scratch, error) {
	base := os.TempDir()
	if w != nil && w.scratch != "" {
		base = w.scratch
		if err := os.MkdirAll(base, 0o700); err != nil {
			return nil, fmt.Errorf("creating a scratch directory for the run: %w", err)
		}
	}
	dir, err := os.MkdirTemp(base, "run-")
	if err != nil {
		return nil, fmt.Errorf("creating a scratch directory for the run: %w", err)
	}
	return &Scratch{base: base, name: filepath.Base(dir)}, nil
}

// Dir is the scratch directory's absolute path.
func (s *Scratch) Dir() string { return filepath.Join(s.base, s.name) }

// Remove removes the scratch directory and whatever the run left in it,
// through an os.Root on the scratch base, so that a symlink the run planted
// is removed and never followed. Directories the run made unreadable or
// unwritable are given back to their owner first.
func (s *Scratch) Remove() error {
	root, err := os.OpenRoot(s.base)
	if err != nil {
		return fmt.Errorf("removing scratch directory %s: %w", s.Dir(), err)
	}
	defer root.Close()
	if err := root.RemoveAll(s.name); err == nil {
		return nil
	}
	_ = fs.WalkDir(root.FS(), s.name, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = root.Chmod(p, 0o700) // before WalkDir reads it
		}
		return nil
	})
	if err := root.RemoveAll(s.name); err != nil {
		return fmt.Errorf("removing scratch directory %s: %w", s.Dir(), err)
	}
	return nil
}
