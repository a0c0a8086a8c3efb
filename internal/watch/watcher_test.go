package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// notifyOnly turns the rescan off so that fsnotify alone must see a change.
var notifyOnly = Options{Debounce: 100 * time.Millisecond, Rescan: -1}

func TestNotifyReportsChanges(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, root string)
		change func(t *testing.T, root string)
	}{
		{
			name:   "create a file",
			change: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new.md"), "# new") },
		},
		{
			name:  "modify a file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) {
				f, err := os.OpenFile(filepath.Join(root, "a.md"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, err := f.WriteString("\nmore"); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name:  "delete a file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(root, "a.md")); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name:  "rename a file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) {
				if err := os.Rename(filepath.Join(root, "a.md"), filepath.Join(root, "b.md")); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name:  "chmod a file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) {
				if err := os.Chmod(filepath.Join(root, "a.md"), 0o600); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name:  "create a file in a deep directory present at start",
			setup: func(t *testing.T, root string) { mkdir(t, filepath.Join(root, "ui", "react", "hooks")) },
			change: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "ui", "react", "hooks", "x.md"), "x")
			},
		},
		{
			name:  "remove a directory",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "data", "sql.md"), "x") },
			change: func(t *testing.T, root string) {
				if err := os.RemoveAll(filepath.Join(root, "data")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, root)
			}
			opts := notifyOnly
			opts.Roots = []string{root}
			r := start(t, opts)
			if got := r.count.Load(); got != 0 {
				t.Fatalf("got %d OnChange calls before any change, want 0", got)
			}
			tt.change(t, root)
			r.waitChange(t, tt.name)
		})
	}
}

func TestNotifyWatchesNewDirectories(t *testing.T) {
	tests := []struct {
		name    string
		create  func(t *testing.T, root string) // makes the new directory, maybe with content
		watched string                          // the deepest new directory, relative to root
	}{
		{
			name:    "empty directory",
			create:  func(t *testing.T, root string) { mkdir(t, filepath.Join(root, "ops")) },
			watched: "ops",
		},
		{
			name: "nested directories filled before the watch is added",
			create: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "data", "sql", "query", "join.md"), "x")
			},
			watched: "data/sql/query",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			opts := notifyOnly
			opts.Roots = []string{root}
			r := start(t, opts)
			tt.create(t, root)
			r.waitChange(t, "creating "+tt.watched)
			r.settle(3 * opts.Debounce)
			dir := filepath.Join(root, filepath.FromSlash(tt.watched))
			if list := r.w.fsw.WatchList(); !slices.Contains(list, dir) {
				t.Fatalf("got watch list %v, want it to hold %s", list, dir)
			}
			writeFile(t, filepath.Join(dir, "late.md"), "late")
			r.waitChange(t, "writing a file in the new directory")
		})
	}
}

// TestNotifyBurstGivesOneChange: a burst of writes through fsnotify gives one
// OnChange. A burst is writes closer together than the debounce; on a loaded
// machine the writing goroutine or the watcher's may stall for more than
// notifyOnly's 100 ms, which split the burst in two, so this test's quiet
// period is ten times that. (debounce_test.go holds the debouncer's logic on
// a fake clock.)
func TestNotifyBurstGivesOneChange(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 10 {
		mkdir(t, filepath.Join(root, fmt.Sprintf("dir%d", i)))
	}
	opts := notifyOnly
	opts.Debounce = time.Second
	opts.Roots = []string{root}
	r := start(t, opts)
	for i := range 1000 { // like a git checkout
		writeFile(t, filepath.Join(root, fmt.Sprintf("dir%d", i%10), fmt.Sprintf("skill%d.md", i)), "# skill")
	}
	r.waitChange(t, "1000 writes")
	if got := r.settle(3 * opts.Debounce); got != 1 {
		t.Errorf("got %d OnChange calls for one burst, want 1", got)
	}
}

func TestNotifyIgnoresDotEntries(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main")
	opts := notifyOnly
	opts.Roots = []string{root}
	r := start(t, opts)
	for _, dir := range r.w.fsw.WatchList() {
		if rel, _ := filepath.Rel(root, dir); rel == ".git" || filepath.Dir(rel) == ".git" {
			t.Errorf("got %s watched, want dot-directories unwatched", dir)
		}
	}
	changes := []struct {
		name string
		do   func()
	}{
		{"write in .git", func() { writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/other") }},
		{"new directory in .git", func() { writeFile(t, filepath.Join(root, ".git", "objects", "ab", "cdef"), "blob") }},
		{"new dot-directory", func() { writeFile(t, filepath.Join(root, ".cache", "x"), "x") }},
		{"dot-file", func() { writeFile(t, filepath.Join(root, ".SKILL.md.swp"), "swap") }},
	}
	for _, c := range changes {
		c.do()
	}
	if got := r.settle(5 * opts.Debounce); got != 0 {
		t.Fatalf("got %d OnChange calls for dot entries, want 0", got)
	}
	writeFile(t, filepath.Join(root, "visible.md"), "# visible") // the watcher is alive
	r.waitChange(t, "writing visible.md")
}

func TestMissingRootIsPickedUpByRescan(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "skills")
	r := start(t, Options{Roots: []string{root}, Debounce: 20 * time.Millisecond, Rescan: 50 * time.Millisecond})
	writeFile(t, filepath.Join(root, "a.md"), "# a")
	r.waitChange(t, "creating the root")
	deadline := time.Now().Add(patience)
	for !slices.Contains(r.w.fsw.WatchList(), root) {
		if time.Now().After(deadline) {
			t.Fatalf("got watch list %v, want it to hold the new root %s", r.w.fsw.WatchList(), root)
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.settle(100 * time.Millisecond)
	writeFile(t, filepath.Join(root, "b.md"), "# b")
	r.waitChange(t, "writing in the new root")
}

func TestRescanFallbackWithoutNotify(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	r := start(t, Options{Roots: []string{root}, Debounce: 10 * time.Millisecond, Rescan: 50 * time.Millisecond}, withoutNotify())
	if r.w.fsw != nil {
		t.Fatal("got an fsnotify watcher, want none with withoutNotify")
	}
	writeFile(t, filepath.Join(root, "new.md"), "# new")
	r.waitChange(t, "creating new.md")
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options
	}{
		{"no OnChange", Options{Roots: []string{t.TempDir()}}},
		{"no roots", Options{OnChange: func() {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := New(tt.opts)
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("got error %v, want core.ErrInvalidArgument", err)
			}
			if w != nil {
				t.Errorf("got a watcher, want nil")
			}
		})
	}
}

func TestStopLeavesNoGoroutines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		stop func(t *testing.T, w *Watcher, cancel context.CancelFunc) // ends the watcher
		run  bool                                                      // whether Run is started before stop
	}{
		{
			name: "context ends",
			stop: func(t *testing.T, w *Watcher, cancel context.CancelFunc) { cancel() },
			run:  true,
		},
		{
			name: "Close during Run",
			stop: func(t *testing.T, w *Watcher, cancel context.CancelFunc) {
				if err := w.Close(); err != nil {
					t.Errorf("Close: got %v, want nil", err)
				}
			},
			run: true,
		},
		{
			name: "Close without Run",
			stop: func(t *testing.T, w *Watcher, cancel context.CancelFunc) {
				if err := w.Close(); err != nil {
					t.Errorf("Close: got %v, want nil", err)
				}
				if err := w.Run(context.Background()); err != nil {
					t.Errorf("Run after Close: got %v, want nil", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "sub", "a.md"), "# a")
			w, err := New(Options{Roots: []string{root}, OnChange: func() {}, Rescan: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			if tt.run {
				go func() { done <- w.Run(ctx) }()
				<-w.ready
				writeFile(t, filepath.Join(root, "sub", "b.md"), "# b") // a debounce timer is pending
			}
			tt.stop(t, w, cancel)
			if tt.run {
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("Run: got %v, want nil", err)
					}
				case <-time.After(patience):
					t.Fatalf("Run did not return within %v", patience)
				}
				if err := w.Run(context.Background()); err == nil {
					t.Errorf("second Run: got nil, want an error")
				}
			}
			if err := w.Close(); err != nil {
				t.Errorf("second Close: got %v, want nil", err)
			}
			deadline := time.Now().Add(patience)
			for runtime.NumGoroutine() > before {
				if time.Now().After(deadline) {
					t.Fatalf("got %d goroutines after stopping, want at most %d as before", runtime.NumGoroutine(), before)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

func TestRescanDoesNotRepeatNotifiedChange(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// fsnotify reports the change long before the next rescan, which must
	// then find the fingerprint the change left.
	opts := Options{Roots: []string{root}, Debounce: 20 * time.Millisecond, Rescan: 300 * time.Millisecond}
	r := start(t, opts)
	writeFile(t, filepath.Join(root, "a.md"), "# a")
	r.waitChange(t, "writing a.md")
	if got := r.settle(3 * opts.Rescan); got != 1 {
		t.Errorf("got %d OnChange calls, want 1: the rescans after it must see no change", got)
	}
}

// TestSinceReportsChangesBeforeTheFirstWalk: a change made after Since (the
// start of the index build) and before Run's first walk, which no watch saw,
// is reported once; a tree untouched since Since is not.
func TestSinceReportsChangesBeforeTheFirstWalk(t *testing.T) {
	t.Parallel()
	old := time.Now().Add(-time.Hour)
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		want   int
	}{
		{"nothing changed", func(*testing.T, string) {}, 0},
		{"a skill written", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new", "SKILL.md"), "---\n---\n") }, 1},
		{"a skill removed", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "a", "SKILL.md")); err != nil {
				t.Fatal(err)
			}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "a", "SKILL.md"), "---\n---\n")
			for _, p := range []string{filepath.Join(root, "a", "SKILL.md"), filepath.Join(root, "a"), root} {
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			since := old.Add(10 * time.Minute) // the index read the tree then
			tt.change(t, root)
			opts := notifyOnly
			opts.Roots, opts.Since = []string{root}, since
			r := start(t, opts)
			if tt.want > 0 {
				r.waitChange(t, tt.name)
			}
			if got := r.settle(5 * opts.Debounce); got != tt.want {
				t.Errorf("got %d OnChange calls, want %d", got, tt.want)
			}
		})
	}
}

// withoutNotify disables fsnotify, as when it cannot be created, so that only
// the rescan detects changes.
func withoutNotify() option { return func(w *Watcher) { w.noNotify = true } }
