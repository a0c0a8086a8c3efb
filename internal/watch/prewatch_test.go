package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// startPrewatched is start for Options.Prewatched: watch (the directories a
// reader of the trees read, resolved against the real root) are watched
// with Watch before Run begins, as internal/index's first build does.
func startPrewatched(t *testing.T, opts Options, root string, watch ...string) *running {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	opts.Roots, opts.Prewatched = []string{root}, true
	r := build(t, opts)
	if r.w.fsw == nil {
		t.Skip("fsnotify unavailable here")
	}
	for _, d := range watch {
		r.w.Watch(filepath.Join(real, filepath.FromSlash(d)))
	}
	r.run(t)
	return r
}

// TestPrewatchedSharesTheReadersWalk: with Prewatched, Run walks nothing at
// start, and the watches the reader placed report every change made after
// its reads, in any directory it read.
func TestPrewatchedSharesTheReadersWalk(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
	}{
		{"a file written deep down", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a", "b", "x.md"), "# x2") }},
		{"a skill created at the top", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new.md"), "# new") }},
		{"a file removed", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "a", "y.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a folder created", func(t *testing.T, root string) { mkdir(t, filepath.Join(root, "a", "b", "c")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "a", "b", "x.md"), "# x")
			writeFile(t, filepath.Join(root, "a", "y.md"), "# y")
			r := startPrewatched(t, notifyOnly, root, ".", "a", "a/b")
			if r.w.walks != 0 || len(r.w.realRoots) != 1 || r.w.degraded {
				t.Fatalf("after Run began: walks %d, real roots %v, degraded %v; want no walk, the root adopted, not degraded",
					r.w.walks, r.w.realRoots, r.w.degraded)
			}
			tt.change(t, root)
			r.waitChange(t, tt.name)
		})
	}
}

// TestPrewatchedRootNotReadIsDegraded: a root the reader did not read (it was
// missing, or the build failed) leaves the trees to the rescan, which watches
// it and reports what it holds.
func TestPrewatchedRootNotReadIsDegraded(t *testing.T) {
	t.Parallel()
	t.Run("degraded", func(t *testing.T) {
		r := startPrewatched(t, Options{Rescan: time.Hour, Since: time.Now()}, t.TempDir())
		if !r.w.degraded { // no tick yet: Run's goroutine is idle
			t.Fatal("got a healthy watcher, want degraded: nothing watched the root")
		}
	})
	t.Run("picked up by the rescan", func(t *testing.T) {
		root := t.TempDir()
		r := startPrewatched(t, Options{Debounce: 20 * time.Millisecond, Rescan: 30 * time.Millisecond, Since: time.Now()}, root)
		writeFile(t, filepath.Join(root, "late.md"), "# late")
		r.waitChange(t, "writing late.md under a root watched by nobody")
	})
}

// TestPrewatchedFirstRescanComparesSince: no baseline is taken at start, so
// the first rescan walk takes it and reports an entry modified since Since:
// a change no watch saw (as on a network file system; here, in a directory
// the reader did not watch) is reported once; an untouched tree is not.
func TestPrewatchedFirstRescanComparesSince(t *testing.T) {
	t.Parallel()
	old := time.Now().Add(-time.Hour)
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		want   int
	}{
		{"nothing changed", func(*testing.T, string) {}, 0},
		{"a file written where no watch is", func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, "a", "SKILL.md"), "---\nname: a\n---\n")
		}, 1},
		{"a file removed where no watch is", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "a", "notes.md")); err != nil {
				t.Fatal(err)
			}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "a", "SKILL.md"), "---\n---\n")
			writeFile(t, filepath.Join(root, "a", "notes.md"), "notes")
			for _, p := range []string{filepath.Join(root, "a", "SKILL.md"), filepath.Join(root, "a", "notes.md"), filepath.Join(root, "a"), root} {
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			opts := Options{Debounce: 10 * time.Millisecond, Rescan: 5 * time.Millisecond, Since: old.Add(10 * time.Minute)}
			r := startPrewatched(t, opts, root, ".") // root/a is not watched: what happens there only a walk sees
			tt.change(t, root)
			if tt.want > 0 {
				r.waitChange(t, tt.name)
			}
			if got := r.settle(3 * healthyRescanEvery * opts.Rescan); got != tt.want {
				t.Errorf("got %d OnChange calls, want %d", got, tt.want)
			}
		})
	}
}

// TestWatchAgainAfterRemove: a directory removed loses its watch, so Watch of
// the same path (a rebuild reading it once it is back) adds a watch again,
// while a directory still watched is not added twice.
func TestWatchAgainAfterRemove(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mkdir(t, filepath.Join(root, "a", "b"))
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	r := startPrewatched(t, notifyOnly, root, ".", "a", "a/b")
	a, b := filepath.Join(real, "a"), filepath.Join(real, "a", "b")
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	r.waitChange(t, "removing a/")
	if r.w.pre.has(a) || r.w.pre.has(b) || !r.w.pre.has(real) {
		t.Fatalf("after removing a/: a watched %v, a/b watched %v, root watched %v; want false, false, true",
			r.w.pre.has(a), r.w.pre.has(b), r.w.pre.has(real))
	}
	mkdir(t, b)
	r.w.Watch(a)
	r.w.Watch(b)
	if !r.w.pre.has(a) || !r.w.pre.has(b) {
		t.Fatal("after Watch of the recreated folders: want both watched")
	}
	r.settle(5 * notifyOnly.Debounce)
	n := r.count.Load()
	writeFile(t, filepath.Join(b, "x.md"), "# x")
	r.waitChange(t, "writing in the recreated a/b")
	if r.count.Load() <= n {
		t.Fatal("no OnChange for a write in the recreated folder")
	}
}
