package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

var (
	helperOnce sync.Once
	helperPath string
	helperErr  error
)

// helper builds cmd/skills-mcp-git once per test process.
func helper(t *testing.T) string {
	t.Helper()
	if goBinary == "" {
		testenv.RequireTool(t, "go") // the PATH of TestMain has none: skips naming go (fails in CI)
	}
	helperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skills-mcp-git-helper-")
		if err != nil {
			helperErr = err
			return
		}
		helperPath = filepath.Join(dir, gitsync.HelperName)
		cmd := exec.Command(goBinary, "build", "-o", helperPath, "../../../cmd/skills-mcp-git")
		cmd.Env = buildEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			helperErr = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if helperErr != nil {
		t.Fatalf("building %s: %v", gitsync.HelperName, helperErr)
	}
	return helperPath
}

// procSyncer is the server's syncer on the fixture: every sync in the real helper.
func (f *fixture) procSyncer(t *testing.T, branch string) (*gitsync.Syncer, error) {
	return gitsync.New(gitsync.Options{Source: gitsync.Source{URL: f.remote, Branch: branch, Dir: f.dir, StateDir: f.stateDir}, Logger: hclog.New(&hclog.LoggerOptions{Output: f.logs, Level: hclog.Trace}), Helper: helper(t)})
}

// The server's syncer behaves as this package's: a clone is an update with
// the listeners told, a new commit is fetched with its changed files counted,
// the remote gone serves the cache (gitsync.ErrUsingCache across the process), a
// directory that is not the clone is refused (gitsync.ErrForeignDir), a bad branch is
// an invalid argument at New, and HEAD and the last sync come back.
func TestHostSyncsAsInProcess(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.procSyncer(t, "-bad"); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("New with branch -bad: %v, want ErrInvalidArgument", err)
	}
	s, err := f.procSyncer(t, "")
	if err != nil {
		t.Fatal(err)
	}
	var updates []gitsync.Result
	s.OnUpdate(func(r gitsync.Result) { updates = append(updates, r) })
	res, err := s.Initialize(context.Background())
	if err != nil || !res.Success || !res.Updated || res.CommitHash != f.head().String() || s.Head() != res.CommitHash || s.LastSync().IsZero() {
		t.Fatalf("Initialize: %+v, %v (head %q)", res, err, s.Head())
	}
	if got := readTree(t, f.dir)["skills/go/testing.md"]; got != initialFiles["skills/go/testing.md"] {
		t.Errorf("clone has %q", got)
	}
	f.commit(map[string]string{"skills/new.md": "---\ntitle: New\n---\nNew.\n"})
	f.push(false)
	res, err = s.ForceRefresh(context.Background())
	if err != nil || !res.Updated || res.FilesChanged != 1 || res.CommitHash != f.head().String() {
		t.Errorf("ForceRefresh after a commit: %+v, %v", res, err)
	}
	if len(updates) != 2 {
		t.Errorf("listeners told %d times, want 2", len(updates))
	}
	if err := os.RemoveAll(f.remote); err != nil {
		t.Fatal(err)
	}
	res, err = s.ForceRefresh(context.Background())
	if !errors.Is(err, gitsync.ErrUsingCache) || res.CommitHash != f.head().String() {
		t.Errorf("ForceRefresh with the remote gone: %+v, %v; want ErrUsingCache naming the cached head", res, err)
	}

	foreign := newFixture(t)
	if err := os.MkdirAll(foreign.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign.dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := foreign.procSyncer(t, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Initialize(context.Background()); !errors.Is(err, gitsync.ErrForeignDir) {
		t.Errorf("Initialize over a foreign directory: %v, want gitsync.ErrForeignDir", err)
	}
}

// The server's periodic refresh picks up a pushed commit through the helper
// and tells the listeners; once stopped, a new commit is not picked up until
// a refresh is asked for.
func TestHostPeriodicPicksUpPushedCommit(t *testing.T) {
	f := newFixture(t)
	s, err := f.procSyncer(t, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	updates := make(chan gitsync.Result, 4)
	s.OnUpdate(func(r gitsync.Result) { updates <- r })
	f.commit(map[string]string{"skills/periodic.md": "picked up\n"})
	f.push(false)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // each tick starts a helper: milliseconds
	defer cancel()
	s.StartPeriodic(ctx, 20*time.Millisecond)
	s.StartPeriodic(ctx, 20*time.Millisecond) // a second start is ignored
	if !strings.Contains(f.logs.String(), "already running") {
		t.Errorf("logs: got %q, want the second start refused", f.logs.String())
	}
	select {
	case res := <-updates:
		if !res.Success || res.CommitHash != f.head().String() || res.FilesChanged != 1 {
			t.Errorf("periodic update: got %+v, want head %s with 1 file", res, f.head())
		}
	case <-ctx.Done():
		t.Fatalf("no periodic update before the deadline: %v", ctx.Err())
	}
	s.Stop()
	s.Stop() // idempotent

	f.commit(map[string]string{"skills/later.md": "later\n"})
	f.push(false)
	if got := readTree(t, f.dir)["skills/later.md"]; got != "" {
		t.Errorf("skills/later.md after Stop: got %q, want absent", got)
	}
	if len(updates) != 0 {
		t.Errorf("updates after Stop: got %d, want 0", len(updates))
	}
}

// The helper serves a server of its own build only: a request from a server
// of another version or protocol, or from one older than the handshake, is
// answered with an error naming both builds, and nothing is cloned.
func TestHostRefusesAServerOfAnotherBuild(t *testing.T) {
	own := childproc.NewHello(gitsync.Protocol)
	for _, tc := range []struct {
		name  string
		hello *childproc.Hello
		want  string
	}{
		{"another version", &childproc.Hello{Protocol: gitsync.Protocol, Version: "v0.0.0-other"}, `refuses a server of "v0.0.0-other"`},
		{"another protocol", &childproc.Hello{Protocol: gitsync.Protocol + 1, Version: own.Version}, "protocol " + strconv.Itoa(gitsync.Protocol+1)},
		{"older than the handshake", nil, "did not say its version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			req, err := json.Marshal(gitsync.Request{Hello: tc.hello, Op: gitsync.OpInitialize, Source: gitsync.Source{URL: f.remote, Dir: f.dir}})
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr strings.Builder
			if code := Host(strings.NewReader(string(req)), &stdout, &stderr); code != 0 {
				t.Fatalf("Host = %d, want 0 (an answer written); stderr:\n%s", code, stderr.String())
			}
			var resp gitsync.Response
			if err := json.Unmarshal([]byte(stdout.String()), &resp); err != nil {
				t.Fatalf("answer %q: %v", stdout.String(), err)
			}
			err = resp.Fault.Err(gitsync.Kinds())
			if !errors.Is(err, childproc.ErrMismatch) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), own.String()) {
				t.Errorf("answer's error = %v; want ErrMismatch naming %s and %s", err, tc.want, own)
			}
			if resp.Hello == nil || *resp.Hello != own {
				t.Errorf("answer's hello = %v, want %v", resp.Hello, own)
			}
			if _, err := os.Stat(f.dir); !os.IsNotExist(err) {
				t.Errorf("the content directory exists after a refused request (%v); want nothing cloned", err)
			}
		})
	}
}
