package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestMain hides every git binary: PATH is an empty directory and HOME a fresh
// one, so the tests prove the package works on a machine without git. The git
// binary found before, if any, is kept in gitBinary for the tests of the real
// credential helper fallback.
func TestMain(m *testing.M) {
	os.Exit(runHermetic(m))
}

// gitBinary is the git on the original PATH, "" when there is none.
var gitBinary string

// goBinary and buildEnv are the go tool and the environment before the tests
// hid them, to build the helper skills-mcp-git (host_test.go).
var (
	goBinary string
	buildEnv []string
)

func runHermetic(m *testing.M) int {
	gitBinary, _ = exec.LookPath("git")
	goBinary, _ = exec.LookPath("go")
	buildEnv = os.Environ()
	tmp, err := os.MkdirTemp("", "gitsync-env-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	for k, v := range map[string]string{"PATH": tmp, "HOME": tmp, "XDG_CONFIG_HOME": tmp, "GIT_CONFIG_NOSYSTEM": "1"} {
		os.Setenv(k, v)
	}
	installFileTransport()
	return m.Run()
}

// initialFiles is the first commit of every fixture remote.
var initialFiles = map[string]string{
	"skills/_root.md":      "---\ntitle: Root\n---\nRoot skill.\n",
	"skills/go/_index.md":  "---\ntitle: Go\n---\nGo conventions.\n",
	"skills/go/testing.md": "---\ntitle: Go testing\n---\nTable-driven tests.\n",
	"config.yaml":          "matching:\n  min_score: 0.2\n",
	".gitignore":           "*.log\n",
}

// fixture is a bare "remote" repository fed by a work repository, plus the
// paths of a cache directory and a state directory, all made with go-git.
type fixture struct {
	t        *testing.T
	remote   string // bare repository, used as SKILLS_REPO
	workDir  string
	work     *git.Repository
	dir      string // the cache directory (not created)
	stateDir string
	logs     *testlog.Buffer
	commits  int
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{
		t:        t,
		remote:   filepath.Join(root, "remote.git"),
		workDir:  filepath.Join(root, "work"),
		stateDir: filepath.Join(root, "home", ".skills-mcp"),
		logs:     &testlog.Buffer{},
	}
	f.dir = filepath.Join(f.stateDir, "content")
	main := plumbing.NewBranchReferenceName("main")
	if _, err := git.PlainInitWithOptions(f.remote, &git.PlainInitOptions{Bare: true, InitOptions: git.InitOptions{DefaultBranch: main}}); err != nil {
		t.Fatalf("init bare remote: %v", err)
	}
	work, err := git.PlainInitWithOptions(f.workDir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: main}})
	if err != nil {
		t.Fatalf("init work repo: %v", err)
	}
	if _, err := work.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{f.remote}}); err != nil {
		t.Fatalf("create remote: %v", err)
	}
	f.work = work
	f.commit(initialFiles)
	f.push(false)
	return f
}

// commit writes files, removes paths, and commits in the work repository.
func (f *fixture) commit(files map[string]string, removes ...string) plumbing.Hash {
	f.t.Helper()
	wt, err := f.work.Worktree()
	if err != nil {
		f.t.Fatalf("worktree: %v", err)
	}
	for name, content := range files {
		p := filepath.Join(f.workDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			f.t.Fatalf("add %s: %v", name, err)
		}
	}
	for _, name := range removes {
		if _, err := wt.Remove(name); err != nil {
			f.t.Fatalf("remove %s: %v", name, err)
		}
	}
	f.commits++
	when := time.Date(2026, 2, 18, 14, 30, f.commits, 0, time.UTC)
	h, err := wt.Commit(fmt.Sprintf("commit %d", f.commits), &git.CommitOptions{
		Author: &object.Signature{Name: "Test", Email: "test@example.com", When: when},
	})
	if err != nil {
		f.t.Fatalf("commit: %v", err)
	}
	return h
}

// rename moves a tracked file in the work repository and commits.
func (f *fixture) rename(from, to string) plumbing.Hash {
	f.t.Helper()
	wt, err := f.work.Worktree()
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(f.workDir, to)), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if _, err := wt.Move(from, to); err != nil {
		f.t.Fatalf("move %s: %v", from, err)
	}
	return f.commit(nil)
}

// rewind hard-resets the work repository to h, to build a divergent history.
func (f *fixture) rewind(h plumbing.Hash) {
	f.t.Helper()
	wt, err := f.work.Worktree()
	if err != nil {
		f.t.Fatal(err)
	}
	if err := wt.Reset(&git.ResetOptions{Commit: h, Mode: git.HardReset}); err != nil {
		f.t.Fatalf("rewind: %v", err)
	}
}

// push sends main to the bare remote; force allows a non-fast-forward.
func (f *fixture) push(force bool) {
	f.t.Helper()
	spec := config.RefSpec("refs/heads/main:refs/heads/main")
	if force {
		spec = "+" + spec
	}
	err := f.work.Push(&git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		f.t.Fatalf("push: %v", err)
	}
}

// head is the work repository's HEAD.
func (f *fixture) head() plumbing.Hash {
	f.t.Helper()
	ref, err := f.work.Head()
	if err != nil {
		f.t.Fatal(err)
	}
	return ref.Hash()
}

// options are the options of a syncer on this fixture, logging into f.logs.
func (f *fixture) options() options {
	return options{
		Source: gitsync.Source{URL: f.remote, Dir: f.dir, StateDir: f.stateDir},
		Logger: hclog.New(&hclog.LoggerOptions{Output: f.logs, Level: hclog.Trace}),
	}
}

func (f *fixture) syncer(opts options) *syncer {
	f.t.Helper()
	s, err := newSyncer(opts)
	if err != nil {
		f.t.Fatalf("New: %v", err)
	}
	return s
}

// initialized returns a syncer whose Initialize succeeded.
func (f *fixture) initialized() *syncer {
	f.t.Helper()
	s := f.syncer(f.options())
	if _, err := s.Initialize(f.t.Context()); err != nil {
		f.t.Fatalf("Initialize: %v", err)
	}
	return s
}

// readTree returns every file under dir except .git, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return got
}

// snapshot records every entry under dir, .git included: type, mode, size,
// modification time and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		entry := fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		got[p] = entry
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return got
}

// mapsEqual reports the first difference between two string maps, "" if none.
func mapsDiff(got, want map[string]string) string {
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return fmt.Sprintf("missing %s", k)
		}
		if g != w {
			return fmt.Sprintf("%s: got %q, want %q", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Sprintf("unexpected %s", k)
		}
	}
	return ""
}
