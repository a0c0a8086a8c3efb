package watch

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/fsnotify/fsnotify"
)

func TestWatchTree(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []string{"ui/react", "data", ".git/objects", "ui/.cache", "elsewhere"} {
		mkdir(t, filepath.Join(root, filepath.FromSlash(d)))
	}
	writeFile(t, filepath.Join(root, "ui", "react", "a.md"), "a")
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "ui", "link")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Skipf("fsnotify unavailable: %v", err)
	}
	defer fsw.Close()

	res := watchTree(fsw, root)
	var want []string
	for _, d := range []string{".", "data", "elsewhere", "ui", "ui/react"} {
		want = append(want, filepath.Join(root, filepath.FromSlash(d)))
	}
	got := fsw.WatchList()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got watch list %v, want %v", got, want)
	}
	if res.added != len(want) || res.failed != 0 || res.firstErr != nil {
		t.Errorf("got result %+v, want %d added and no failure", res, len(want))
	}
	if res := watchTree(fsw, filepath.Join(root, "missing")); res != (treeResult{}) {
		t.Errorf("missing directory: got %+v, want nothing done", res)
	}
}

// limitAdder fails like inotify once its watch budget is spent; the real limit
// cannot be reached in a test.
type limitAdder struct {
	budget int
	calls  int
}

func (a *limitAdder) Add(string) error {
	a.calls++
	if a.calls > a.budget {
		return syscall.ENOSPC
	}
	return nil
}

func TestWatchTreeStopsAtTheWatchLimit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []string{"a", "b", "c", "d"} {
		mkdir(t, filepath.Join(root, d))
	}
	a := &limitAdder{budget: 2}
	res := watchTree(a, root)
	if res.added != 2 || res.failed != 1 {
		t.Errorf("got %d added and %d failed, want 2 and 1", res.added, res.failed)
	}
	if a.calls != 3 {
		t.Errorf("got %d Add calls, want 3: the walk stops at the first ENOSPC", a.calls)
	}
	if !errors.Is(res.firstErr, syscall.ENOSPC) {
		t.Errorf("got first error %v, want ENOSPC", res.firstErr)
	}
}
