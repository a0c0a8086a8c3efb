package engine

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// tickingClock returns a clock that advances one minute per call.
func tickingClock() func() time.Time {
	var n atomic.Int64
	return func() time.Time { return syncTime.Add(time.Duration(n.Add(1)) * time.Minute) }
}

func TestForceRefresh(t *testing.T) {
	t.Parallel()
	with := func(extra map[string]string, removes ...string) map[string]string {
		m := maps.Clone(initialFiles)
		maps.Copy(m, extra)
		for _, r := range removes {
			delete(m, r)
		}
		return m
	}
	tests := []struct {
		name string
		// before runs before Initialize, change between Initialize and ForceRefresh.
		before, change func(t *testing.T, f *fixture)
		wantUpdated    bool
		wantFiles      int
		wantTree       map[string]string
	}{
		{
			name:     "no upstream change",
			wantTree: initialFiles,
		},
		{
			name: "new upstream commit",
			change: func(t *testing.T, f *fixture) {
				f.commit(map[string]string{"skills/go/testing.md": "rewritten\n", "skills/python/_index.md": "python\n"}, "config.yaml")
				f.push(false)
			},
			wantUpdated: true,
			wantFiles:   3,
			wantTree:    with(map[string]string{"skills/go/testing.md": "rewritten\n", "skills/python/_index.md": "python\n"}, "config.yaml"),
		},
		{
			name: "two upstream commits",
			change: func(t *testing.T, f *fixture) {
				f.commit(map[string]string{"skills/a.md": "a\n"})
				f.commit(map[string]string{"skills/b.md": "b\n"})
				f.push(false)
			},
			wantUpdated: true,
			wantFiles:   2,
			wantTree:    with(map[string]string{"skills/a.md": "a\n", "skills/b.md": "b\n"}),
		},
		{
			name: "rename counts once",
			change: func(t *testing.T, f *fixture) {
				f.rename("skills/go/testing.md", "skills/golang/testing.md")
				f.push(false)
			},
			wantUpdated: true,
			wantFiles:   1,
			wantTree:    with(map[string]string{"skills/golang/testing.md": initialFiles["skills/go/testing.md"]}, "skills/go/testing.md"),
		},
		{
			name: "force-pushed history",
			before: func(t *testing.T, f *fixture) {
				f.commit(map[string]string{"skills/abandoned.md": "this branch of history will be rewritten\n"})
				f.push(false)
			},
			change: func(t *testing.T, f *fixture) {
				f.rewind(firstCommit(t, f))
				f.commit(map[string]string{"skills/kept.md": "42\n"})
				f.push(true)
			},
			wantUpdated: true,
			wantFiles:   2,
			wantTree:    with(map[string]string{"skills/kept.md": "42\n"}),
		},
		{
			name: "stray local edits and untracked files",
			change: func(t *testing.T, f *fixture) {
				writeFile(t, filepath.Join(f.dir, "skills", "_root.md"), "edited by hand\n")
				writeFile(t, filepath.Join(f.dir, "notes.txt"), "untracked\n")
				writeFile(t, filepath.Join(f.dir, "scratch", "deep", "tmp.md"), "untracked dir\n")
				writeFile(t, filepath.Join(f.dir, "skills", "debug.log"), "ignored by .gitignore\n")
				if err := os.Remove(filepath.Join(f.dir, "config.yaml")); err != nil {
					t.Fatal(err)
				}
			},
			wantTree: initialFiles,
		},
		{
			name: "local edits and an upstream commit",
			change: func(t *testing.T, f *fixture) {
				writeFile(t, filepath.Join(f.dir, "skills", "go", "testing.md"), "edited by hand\n")
				writeFile(t, filepath.Join(f.dir, "skills", "go", "extra.md"), "untracked\n")
				f.commit(map[string]string{"skills/go/testing.md": "upstream\n"})
				f.push(false)
			},
			wantUpdated: true,
			wantFiles:   1,
			wantTree:    with(map[string]string{"skills/go/testing.md": "upstream\n"}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.before != nil {
				tt.before(t, f)
			}
			opts := f.options()
			opts.Now = tickingClock()
			s := f.syncer(opts)
			first, err := s.Initialize(t.Context())
			if err != nil {
				t.Fatalf("Initialize: %v", err)
			}
			if tt.change != nil {
				tt.change(t, f)
			}

			res, err := s.ForceRefresh(t.Context())
			if err != nil {
				t.Fatalf("ForceRefresh: %v", err)
			}
			want := gitsync.Result{
				Success: true, Updated: tt.wantUpdated, CommitHash: f.head().String(),
				FilesChanged: tt.wantFiles, LastSync: first.LastSync.Add(time.Minute),
			}
			if res != want {
				t.Errorf("ForceRefresh: got %+v, want %+v", res, want)
			}
			if !tt.wantUpdated && res.CommitHash != first.CommitHash {
				t.Errorf("CommitHash: got %s, want the unchanged %s", res.CommitHash, first.CommitHash)
			}
			if got := s.Head(); got != want.CommitHash {
				t.Errorf("Head: got %s, want %s", got, want.CommitHash)
			}
			if d := mapsDiff(readTree(t, f.dir), tt.wantTree); d != "" {
				t.Errorf("cache content: %s", d)
			}
		})
	}
}

// firstCommit returns the root commit of the fixture's work repository.
func firstCommit(t *testing.T, f *fixture) plumbing.Hash {
	t.Helper()
	c, err := f.work.CommitObject(f.head())
	if err != nil {
		t.Fatal(err)
	}
	for c.NumParents() > 0 {
		if c, err = c.Parent(0); err != nil {
			t.Fatal(err)
		}
	}
	return c.Hash
}

func TestForceRefreshRemoteGoneKeepsState(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	opts.Now = tickingClock()
	s := f.syncer(opts)
	first, err := s.Initialize(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(f.remote, f.remote+".gone"); err != nil {
		t.Fatal(err)
	}

	res, err := s.ForceRefresh(t.Context())
	if !errors.Is(err, gitsync.ErrUsingCache) {
		t.Fatalf("ForceRefresh: got %v, want gitsync.ErrUsingCache", err)
	}
	want := gitsync.Result{Success: false, CommitHash: first.CommitHash, LastSync: first.LastSync}
	if res != want {
		t.Errorf("ForceRefresh: got %+v, want %+v", res, want)
	}
	if s.Head() != first.CommitHash || !s.LastSync().Equal(first.LastSync) {
		t.Errorf("state: got head %s at %v, want %s at %v", s.Head(), s.LastSync(), first.CommitHash, first.LastSync)
	}
	if st := readState(t, f.stateDir); st.Head != first.CommitHash || !st.LastSync.Equal(first.LastSync) {
		t.Errorf("state file: got %+v, want head %s at %v", st, first.CommitHash, first.LastSync)
	}
	if d := mapsDiff(readTree(t, f.dir), initialFiles); d != "" {
		t.Errorf("cache content: %s", d)
	}
	if logs := f.logs.String(); !strings.Contains(logs, "[WARN]") || !strings.Contains(logs, "serving the cached copy") {
		t.Errorf("logs: got %q, want a warning about the cached copy", logs)
	}

	// The remote comes back: the next refresh succeeds.
	if err := os.Rename(f.remote+".gone", f.remote); err != nil {
		t.Fatal(err)
	}
	f.commit(map[string]string{"skills/back.md": "back\n"})
	f.push(false)
	res, err = s.ForceRefresh(t.Context())
	if err != nil || !res.Success || !res.Updated || res.CommitHash != f.head().String() || res.FilesChanged != 1 {
		t.Errorf("ForceRefresh after recovery: got %+v, %v; want updated to %s with 1 file", res, err, f.head())
	}
}

func TestForceRefreshConcurrentCallReturnsInProgress(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.initialized()
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.beforeSync = func() {
		once.Do(func() {
			close(entered)
			<-release
		})
	}
	type outcome struct {
		res gitsync.Result
		err error
	}
	first := make(chan outcome, 1)
	go func() {
		res, err := s.ForceRefresh(t.Context())
		first <- outcome{res, err}
	}()
	<-entered

	res, err := s.ForceRefresh(t.Context())
	if !errors.Is(err, core.ErrRefreshInProgress) || res != (gitsync.Result{}) {
		t.Errorf("concurrent ForceRefresh: got %+v, %v; want gitsync.Result{Success: false}, ErrRefreshInProgress", res, err)
	}
	close(release)
	if got := <-first; got.err != nil || !got.res.Success {
		t.Errorf("first ForceRefresh: got %+v, %v; want success", got.res, got.err)
	}
	if res, err := s.ForceRefresh(t.Context()); err != nil || !res.Success {
		t.Errorf("ForceRefresh after the first ended: got %+v, %v; want success", res, err)
	}
}

func TestForceRefreshBeforeInitializeClones(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.syncer(f.options())
	res, err := s.ForceRefresh(t.Context())
	if err != nil || !res.Updated || res.CommitHash != f.head().String() {
		t.Fatalf("ForceRefresh: got %+v, %v; want a clone at %s", res, err, f.head())
	}
}
