package launch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// Installation is where a runner's program lives, as a confined run sees it.
type Installation struct {
	// Program is what a confined run executes: the program as the runner
	// resolved it, or the interpreter a version manager's shim leads to.
	Program string
	// Dirs are what a confined run may read of it: the prefix of the
	// program and of its real path (…/versions/3.11.7 for …/bin/python3),
	// never the home directory itself.
	Dirs []string
	// Bin is the directory of Program, put first in a confined run's PATH
	// so that a script starting "python3" finds this one.
	Bin string
	// Err says why a shim could not be resolved; a confined run of this
	// program is refused with it.
	Err error
}

// shimManagers are the version managers whose shims (ROOT/shims/NAME, a
// script) lead, through `MANAGER which NAME`, to the interpreter chosen by
// the server's environment.
var shimManagers = []string{"pyenv", "rbenv", "nodenv", "goenv", "plenv", "jenv", "asdf", "mise"}

// Register records program (absolute, as a runner resolved it at start) as
// one of the operator's runner programs: its installation is granted to
// every confined run, so that a script can start any of the operator's
// interpreters. It costs nothing at start: the installation is resolved at
// the first confined run.
func (c *Confinement) Register(program string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.installs[program]; !ok {
		c.installs[program] = &lazyInstall{}
	}
}

// Install resolves where program lives, once (registering it if need be).
// A version manager's shim is resolved to the interpreter it chooses, with
// the server's environment and working directory: inside a run, the shim
// would look for its choice in the run's home and working directory, which
// are not the operator's.
func (c *Confinement) Install(program string) *Installation {
	c.Register(program)
	c.mu.Lock()
	l := c.installs[program]
	c.mu.Unlock()
	l.once.Do(func() { l.in = resolveInstallation(program) })
	return l.in
}

// lazyInstall is an installation resolved at its first use.
type lazyInstall struct {
	once sync.Once
	in   *Installation
}

// installations resolves every registered program, sorted by path.
func (c *Confinement) installations() []*Installation {
	c.mu.Lock()
	programs := make([]string, 0, len(c.installs))
	for p := range c.installs {
		programs = append(programs, p)
	}
	c.mu.Unlock()
	slices.Sort(programs)
	out := make([]*Installation, len(programs))
	for i, p := range programs {
		out[i] = c.Install(p)
	}
	return out
}

// installDirs are the directories of every registered installation.
func (c *Confinement) installDirs() []string {
	var dirs []string
	for _, in := range c.installations() {
		dirs = append(dirs, in.Dirs...)
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// InstallBins are the Bin directories of every registered installation,
// sorted, for the front of a confined run's PATH.
func (c *Confinement) InstallBins() []string {
	var bins []string
	for _, in := range c.installations() {
		if in.Err == nil && in.Bin != "" && !slices.Contains(bins, in.Bin) {
			bins = append(bins, in.Bin)
		}
	}
	slices.Sort(bins)
	return bins
}

func resolveInstallation(program string) *Installation {
	in := &Installation{Program: program}
	if manager, root, ok := shimOf(program); ok {
		real, err := whichThroughManager(manager, root, filepath.Base(program))
		if err != nil {
			in.Err = fmt.Errorf("%w: runner program %s is a %s shim that could not be resolved to an interpreter (%v): "+
				"name the interpreter's absolute path in scripts.runners", ErrUnconfinable, program, manager, err)
			return in
		}
		in.Program = real
	}
	in.Bin = filepath.Dir(in.Program)
	home, _ := os.UserHomeDir()
	add := func(p string) {
		if dir := prefixOf(p, home); dir != "" && !slices.Contains(in.Dirs, dir) {
			in.Dirs = append(in.Dirs, dir)
		}
	}
	add(in.Program)
	if real, err := filepath.EvalSymlinks(in.Program); err == nil {
		add(real)
	}
	return in
}

// prefixOf is the installation prefix of the executable at path: the parent
// of its bin (or sbin) directory, else its own directory; but never "/",
// the home directory or a directory holding it (then the program's own
// directory, or nothing when that is the home).
func prefixOf(path, home string) string {
	dir := filepath.Dir(path)
	prefix := dir
	if b := filepath.Base(dir); b == "bin" || b == "sbin" {
		prefix = filepath.Dir(dir)
	}
	tooWide := func(d string) bool {
		return filepath.Dir(d) == d || (home != "" && home != "/" && confine.Within(d, home))
	}
	if tooWide(prefix) {
		prefix = dir
	}
	if tooWide(prefix) {
		return ""
	}
	return prefix
}

// shimOf reports whether program is a version manager's shim: a script in
// a directory named "shims" whose parent holds the manager's executable.
func shimOf(program string) (manager, root string, ok bool) {
	dir := filepath.Dir(program)
	if filepath.Base(dir) != "shims" || !isScript(program) {
		return "", "", false
	}
	root = filepath.Dir(dir)
	for _, m := range shimManagers {
		for _, sub := range []string{"libexec", "bin"} {
			exe := filepath.Join(root, sub, m)
			if fi, err := os.Stat(exe); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				return exe, root, true
			}
		}
	}
	if exe, err := exec.LookPath("mise"); err == nil && strings.Contains(root, "mise") {
		return exe, root, true
	}
	return "", "", false
}

// isScript reports whether the file starts with "#!".
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [2]byte
	_, err = io.ReadFull(f, head[:])
	return err == nil && string(head[:]) == "#!"
}

// whichThroughManager asks the manager which interpreter name runs, with
// the server's environment (and MANAGER_ROOT set to root) and a bound of
// 20 seconds.
func whichThroughManager(manager, root, name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, manager, "which", name)
	base := strings.ToUpper(filepath.Base(manager))
	cmd.Env = append(os.Environ(), base+"_ROOT="+root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s which %s: %v: %s", filepath.Base(manager), name, err, strings.TrimSpace(stderr.String()))
	}
	path := strings.TrimSpace(string(out))
	if !filepath.IsAbs(path) || strings.ContainsRune(path, '\n') {
		return "", fmt.Errorf("%s which %s answered %q, not an absolute path", filepath.Base(manager), name, path)
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s which %s answered %s, not an executable", filepath.Base(manager), name, path)
	}
	return path, nil
}
