package engine

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

var syncTime = time.Date(2026, 2, 18, 14, 30, 0, 0, time.UTC)

func TestInitializeClones(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		prepare func(f *fixture)
		url     func(f *fixture) string
	}{
		{name: "missing directory", url: func(f *fixture) string { return f.remote }},
		{
			name:    "empty directory",
			prepare: func(f *fixture) { mkdir(t, f.dir) },
			url:     func(f *fixture) string { return f.remote },
		},
		{name: "file URL", url: func(f *fixture) string { return "file://" + filepath.ToSlash(f.remote) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.prepare != nil {
				tt.prepare(f)
			}
			opts := f.options()
			opts.URL = tt.url(f)
			opts.Now = func() time.Time { return syncTime }
			s := f.syncer(opts)

			res, err := s.Initialize(t.Context())
			if err != nil {
				t.Fatalf("Initialize: %v", err)
			}
			want := gitsync.Result{Success: true, Updated: true, CommitHash: f.head().String(), FilesChanged: len(initialFiles), LastSync: syncTime}
			if res != want {
				t.Errorf("Initialize: got %+v, want %+v", res, want)
			}
			if d := mapsDiff(readTree(t, f.dir), initialFiles); d != "" {
				t.Errorf("cache content: %s", d)
			}
			if got := s.Head(); got != f.head().String() {
				t.Errorf("Head: got %s, want %s", got, f.head())
			}
			if got := s.LastSync(); !got.Equal(syncTime) {
				t.Errorf("LastSync: got %v, want %v", got, syncTime)
			}
			if got := originURL(t, f.dir); got != opts.URL {
				t.Errorf("origin: got %q, want %q", got, opts.URL)
			}
			st := readState(t, f.stateDir)
			if st.Head != f.head().String() || !st.LastSync.Equal(syncTime) || st.Dir != f.dir || st.Branch != "main" {
				t.Errorf("state file: got %+v, want head %s at %v for %s on main", st, f.head(), syncTime, f.dir)
			}
		})
	}
}

func TestInitializeUpdatesExistingClone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		url  func(f *fixture) string // SKILLS_REPO at the second start
	}{
		{name: "same URL", url: func(f *fixture) string { return f.remote }},
		{name: "same repository spelled as a file URL", url: func(f *fixture) string { return "file://" + filepath.ToSlash(f.remote) + "/" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.initialized()
			f.commit(map[string]string{"skills/go/testing.md": "changed\n", "skills/rust/_index.md": "rust\n"})
			f.push(false)

			opts := f.options()
			opts.URL = tt.url(f)
			s := f.syncer(opts) // a restarted server
			res, err := s.Initialize(t.Context())
			if err != nil {
				t.Fatalf("Initialize: %v", err)
			}
			if !res.Success || !res.Updated || res.FilesChanged != 2 || res.CommitHash != f.head().String() {
				t.Errorf("Initialize: got %+v, want updated to %s with 2 files", res, f.head())
			}
			if got := readTree(t, f.dir)["skills/rust/_index.md"]; got != "rust\n" {
				t.Errorf("skills/rust/_index.md: got %q, want %q", got, "rust\n")
			}
			if got, want := originURL(t, f.dir), s.url; got != want {
				t.Errorf("origin: got %q, want %q", got, want)
			}
		})
	}
}

func TestInitializeRemoteGone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		withClone bool
	}{
		{name: "existing clone serves the cache", withClone: true},
		{name: "no clone leaves nothing to serve", withClone: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var cached string
			if tt.withClone {
				opts := f.options()
				opts.Now = func() time.Time { return syncTime }
				s := f.syncer(opts)
				if _, err := s.Initialize(t.Context()); err != nil {
					t.Fatal(err)
				}
				cached = s.Head()
			}
			if err := os.Rename(f.remote, f.remote+".gone"); err != nil {
				t.Fatal(err)
			}
			s := f.syncer(f.options())
			res, err := s.Initialize(t.Context())
			if err == nil {
				t.Fatalf("Initialize: got %+v, nil error; want an error", res)
			}
			if got := errors.Is(err, gitsync.ErrUsingCache); got != tt.withClone {
				t.Errorf("errors.Is(%v, gitsync.ErrUsingCache): got %v, want %v", err, got, tt.withClone)
			}
			if !strings.Contains(err.Error(), f.remote) {
				t.Errorf("error does not name the remote %s: %v", f.remote, err)
			}
			if res.Success {
				t.Errorf("Success: got true, want false")
			}
			if !tt.withClone {
				if _, statErr := os.Stat(f.dir); !errors.Is(statErr, os.ErrNotExist) {
					t.Errorf("cache directory after a failed clone: got %v, want it absent", statErr)
				}
				return
			}
			if res.CommitHash != cached || s.Head() != cached {
				t.Errorf("cached head: got result %s, Head %s; want %s", res.CommitHash, s.Head(), cached)
			}
			if !res.LastSync.Equal(syncTime) || !s.LastSync().Equal(syncTime) {
				t.Errorf("LastSync: got %v and %v, want %v restored from the state file", res.LastSync, s.LastSync(), syncTime)
			}
			if d := mapsDiff(readTree(t, f.dir), initialFiles); d != "" {
				t.Errorf("cache content: %s", d)
			}
			if !strings.Contains(f.logs.String(), "[WARN]") {
				t.Errorf("logs: got %q, want a warning", f.logs.String())
			}
		})
	}
}

func TestInitializeRefusesForeignDirectory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		prepare func(t *testing.T, f *fixture)
		wantMsg string
	}{
		{
			name: "directory of plain files",
			prepare: func(t *testing.T, f *fixture) {
				writeFile(t, filepath.Join(f.dir, "notes.txt"), "mine\n")
				writeFile(t, filepath.Join(f.dir, "sub", "a.md"), "also mine\n")
			},
			wantMsg: "not a git repository",
		},
		{
			name:    "file in place of the directory",
			prepare: func(t *testing.T, f *fixture) { writeFile(t, f.dir, "a file\n") },
			wantMsg: "not a directory",
		},
		{
			name: "corrupt repository",
			prepare: func(t *testing.T, f *fixture) {
				writeFile(t, filepath.Join(f.dir, ".git", "HEAD"), "garbage")
				writeFile(t, filepath.Join(f.dir, ".git", "config"), "[[[ not a config")
			},
			wantMsg: "SKILLS_CACHE_DIR",
		},
		{
			name: "bare repository",
			prepare: func(t *testing.T, f *fixture) {
				if _, err := git.PlainInit(f.dir, true); err != nil {
					t.Fatal(err)
				}
			},
			wantMsg: "bare",
		},
		{
			name: "repository without origin",
			prepare: func(t *testing.T, f *fixture) {
				if _, err := git.PlainInit(f.dir, false); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(f.dir, "draft.md"), "draft\n")
			},
			wantMsg: "without an origin",
		},
		{
			name: "clone of another repository",
			prepare: func(t *testing.T, f *fixture) {
				other := newFixture(t)
				if _, err := git.PlainClone(f.dir, false, &git.CloneOptions{URL: other.remote}); err != nil {
					t.Fatal(err)
				}
			},
			wantMsg: "is a clone of",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.prepare(t, f)
			before := snapshot(t, f.dir)
			s := f.syncer(f.options())

			for _, call := range []struct {
				name string
				run  func() (gitsync.Result, error)
			}{{"Initialize", func() (gitsync.Result, error) { return s.Initialize(t.Context()) }}, {"ForceRefresh", func() (gitsync.Result, error) { return s.ForceRefresh(t.Context()) }}} {
				res, err := call.run()
				if !errors.Is(err, gitsync.ErrForeignDir) {
					t.Fatalf("%s: got %+v, %v; want gitsync.ErrForeignDir", call.name, res, err)
				}
				for _, want := range []string{f.dir, tt.wantMsg, "SKILLS_CACHE_DIR"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s error: got %q, want it to contain %q", call.name, err, want)
					}
				}
				if res.Success || s.Head() != "" {
					t.Errorf("%s: got %+v and Head %q, want no success and no head", call.name, res, s.Head())
				}
			}
			if d := mapsDiff(snapshot(t, f.dir), before); d != "" {
				t.Errorf("foreign directory modified: %s", d)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// originURL reads the origin URL stored in dir/.git/config.
func originURL(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.NewConfig()
	if err := cfg.Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	origin, ok := cfg.Remotes["origin"]
	if !ok || len(origin.URLs) != 1 {
		t.Fatalf("origin in %s: got %+v, want one URL", dir, origin)
	}
	return origin.URLs[0]
}

func readState(t *testing.T, stateDir string) syncState {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(stateDir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st syncState
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("state file %q: %v", data, err)
	}
	return st
}
