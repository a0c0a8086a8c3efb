package watch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hashicorp/go-hclog"
)

// TestRescanFakeTime drives the rescan-only Watcher in a synctest bubble: the
// ticker and the debounce timer run on fake time, so the call count is exact.
// synctest.Test also fails if Run leaves a goroutine behind.
func TestRescanFakeTime(t *testing.T) {
	const (
		rescan   = time.Second
		debounce = 100 * time.Millisecond
	)
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		setup  func(t *testing.T, root string)
		change func(t *testing.T, root string)
		want   int32
	}{
		{
			name:   "new file",
			change: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new.md"), "# new") },
			want:   1,
		},
		{
			name:   "file size changes",
			setup:  func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a, longer") },
			want:   1,
		},
		{
			name:  "only the mtime changes",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a.md"), "# a") },
			change: func(t *testing.T, root string) {
				if err := os.Chtimes(filepath.Join(root, "a.md"), past, past); err != nil {
					t.Fatal(err)
				}
			},
			want: 1,
		},
		{
			name:  "file deleted",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a", "b.md"), "# b") },
			change: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(root, "a", "b.md")); err != nil {
					t.Fatal(err)
				}
			},
			want: 1,
		},
		{
			name:   "root created after start",
			setup:  func(t *testing.T, root string) { _ = os.Remove(root) },
			change: func(t *testing.T, root string) { mkdir(t, root) },
			want:   1,
		},
		{
			name:   "nothing changes",
			change: func(t *testing.T, root string) {},
			want:   0,
		},
		{
			name:   "dot-file",
			change: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, ".DS_Store"), "x") },
			want:   0,
		},
		{
			name:   "file in a dot-directory",
			setup:  func(t *testing.T, root string) { mkdir(t, filepath.Join(root, ".git")) },
			change: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, ".git", "index"), "x") },
			want:   0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			mkdir(t, root)
			if tt.setup != nil {
				tt.setup(t, root)
			}
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				w, err := newWatcher(Options{
					Roots: []string{root}, Debounce: debounce, Rescan: rescan,
					OnChange: func() { calls.Add(1) },
				}, withoutNotify())
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- w.Run(ctx) }()
				synctest.Wait()
				tt.change(t, root)
				time.Sleep(rescan + debounce + time.Millisecond)
				synctest.Wait()
				if got := calls.Load(); got != tt.want {
					t.Errorf("after one rescan: got %d OnChange calls, want %d", got, tt.want)
				}
				time.Sleep(5 * rescan) // the change is not reported again
				synctest.Wait()
				if got := calls.Load(); got != tt.want {
					t.Errorf("after five more rescans: got %d OnChange calls, want %d", got, tt.want)
				}
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run: got %v, want nil", err)
				}
			})
		})
	}
}

func TestOnChangePanicDoesNotStopTheWatcher(t *testing.T) {
	root := t.TempDir()
	var logs bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		w, err := newWatcher(Options{
			Roots: []string{root}, Debounce: 10 * time.Millisecond, Rescan: time.Second,
			Logger: hclog.New(&hclog.LoggerOptions{Output: &logs}),
			OnChange: func() {
				if calls.Add(1) == 1 {
					panic("rebuild exploded")
				}
			},
		}, withoutNotify())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go func() { _ = w.Run(ctx) }()
		synctest.Wait() // Run has taken its baseline: what follows is a change
		for i, name := range []string{"a.md", "b.md"} {
			writeFile(t, filepath.Join(root, name), "#")
			time.Sleep(time.Second + 20*time.Millisecond)
			synctest.Wait()
			if got := calls.Load(); got != int32(i+1) {
				t.Fatalf("after writing %s: got %d OnChange calls, want %d", name, got, i+1)
			}
		}
		cancel()
		synctest.Wait()
	})
	if got := logs.String(); !strings.Contains(got, "rebuild exploded") {
		t.Errorf("got log %q, want it to report the panic", got)
	}
}

func TestCloseFromOnChange(t *testing.T) {
	root := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		var w *Watcher
		closed := make(chan error, 1)
		w, err := newWatcher(Options{
			Roots: []string{root}, Debounce: 10 * time.Millisecond, Rescan: time.Second,
			OnChange: func() { closed <- w.Close() },
		}, withoutNotify())
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- w.Run(t.Context()) }()
		synctest.Wait() // Run has taken its baseline: what follows is a change
		writeFile(t, filepath.Join(root, "a.md"), "#")
		if err := <-done; err != nil { // Run ends because OnChange closed the watcher
			t.Errorf("Run: got %v, want nil", err)
		}
		if err := <-closed; err != nil {
			t.Errorf("Close: got %v, want nil", err)
		}
	})
}

// TestBaselineTakenWhenRunBegins: New walks nothing; the baseline is the state
// when Run begins, so a change made between New and Run is part of it, and a
// change made after Run has begun is reported.
func TestBaselineTakenWhenRunBegins(t *testing.T) {
	root := t.TempDir()
	const debounce, rescan = 10 * time.Millisecond, time.Second
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		w, err := newWatcher(Options{
			Roots: []string{root}, Debounce: debounce, Rescan: rescan,
			OnChange: func() { calls.Add(1) },
		}, withoutNotify())
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, "before-run.md"), "#")
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go func() { _ = w.Run(ctx) }()
		synctest.Wait()
		time.Sleep(2*rescan + debounce)
		synctest.Wait()
		if got := calls.Load(); got != 0 {
			t.Errorf("change made before Run: got %d OnChange calls, want 0", got)
		}
		writeFile(t, filepath.Join(root, "after-run.md"), "#")
		time.Sleep(rescan + debounce + time.Millisecond)
		synctest.Wait()
		if got := calls.Load(); got != 1 {
			t.Errorf("change made after Run began: got %d OnChange calls, want 1", got)
		}
		cancel()
		synctest.Wait()
	})
}

// TestRescanWalksLessWhileWatched: while every tree is watched, the rescan
// walks the trees once in healthyRescanEvery periods; when a root is
// missing or fsnotify is unavailable, at every period.
func TestRescanWalksLessWhileWatched(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		roots     func(t *testing.T) []string
		extra     []option
		wantWalks int
	}{
		{"every tree watched", func(t *testing.T) []string { return []string{t.TempDir()} }, nil, 2},
		{"a root missing", func(t *testing.T) []string {
			return []string{t.TempDir(), filepath.Join(t.TempDir(), "not-yet")}
		}, nil, 2 * healthyRescanEvery},
		{"no fsnotify", func(t *testing.T) []string { return []string{t.TempDir()} }, []option{withoutNotify()}, 2 * healthyRescanEvery},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := newWatcher(Options{Roots: tt.roots(t), OnChange: func() {}, Rescan: time.Hour}, tt.extra...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = w.Close() })
			if w.fsw != nil {
				w.watchRoots() // what Run does before its first tick
			}
			for range 2 * healthyRescanEvery {
				w.rescanOnce()
			}
			if w.walks != tt.wantWalks {
				t.Errorf("got %d walks in %d periods, want %d", w.walks, 2*healthyRescanEvery, tt.wantWalks)
			}
		})
	}
}
