package server_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/internal/testnet"
)

var (
	gitHelperOnce sync.Once
	gitHelperPath string
	gitHelperErr  error
)

// gitHelper builds cmd/skills-mcp-git once per test process.
func gitHelper(t *testing.T) string {
	t.Helper()
	goBin := testenv.RequireTool(t, "go")
	gitHelperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "server-test-git-helper-")
		if err != nil {
			gitHelperErr = err
			return
		}
		gitHelperPath = filepath.Join(dir, gitsync.HelperName)
		if out, err := exec.Command(goBin, "build", "-o", gitHelperPath, "../../cmd/skills-mcp-git").CombinedOutput(); err != nil {
			gitHelperErr = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if gitHelperErr != nil {
		t.Fatalf("building %s: %v", gitsync.HelperName, gitHelperErr)
	}
	return gitHelperPath
}

// helperSyncer is the server's git syncer (internal/gitsync) as refresh_skills
// sees it, as cmd wires it.
type helperSyncer struct{ s *gitsync.Syncer }

func (h helperSyncer) ForceRefresh(ctx context.Context) (server.SyncStatus, error) {
	res, err := h.s.ForceRefresh(ctx)
	return server.SyncStatus{Success: res.Success, CommitHash: res.CommitHash, FilesChanged: res.FilesChanged}, err
}

func (h helperSyncer) Status() server.SyncStatus { return server.SyncStatus{CommitHash: h.s.Head()} }

// With the defaults, a refresh whose remote hangs fails, its helper is asked
// to stop, before refresh_skills' answer is due, and that answer comes well
// within the 60 s request timeout of usual MCP clients (issue 26, item 12).
// Before, the git timeout alone was 60 s.
func TestRefreshDefaultsAnswerInTime(t *testing.T) {
	t.Parallel()
	if got := time.Duration(config.Default().Refresh.GitTimeoutSeconds) * time.Second; got != gitsync.DefaultTimeout {
		t.Errorf("refresh.git_timeout_seconds defaults to %v, the git helper to %v", got, gitsync.DefaultTimeout)
	}
	if gitsync.DefaultTimeout+gitsync.HelperMargin >= server.RefreshAnswerWait || server.RefreshAnswerWait > 30*time.Second {
		t.Errorf("git timeout %v + margin %v, answer wait %v: want the helper asked to stop before the answer is due, at most 30 s",
			gitsync.DefaultTimeout, gitsync.HelperMargin, server.RefreshAnswerWait)
	}
}

// refresh_skills against a git remote that never answers (internal/testnet)
// answers in every case before its wait ends: with the sync's failure when
// git gives up first, else saying the refresh goes on in the background;
// then a call answers at once that it still runs, and once it has ended the
// next answer reports its outcome (issue 26, item 12). Before, the answer
// came when git gave up, after the 60 s of the default git timeout.
func TestRefreshAnswersWhileGitHangs(t *testing.T) {
	t.Parallel()
	helper := gitHelper(t)
	url := testnet.SilentRemote(t)
	serve := func(t *testing.T, gitTimeout, wait time.Duration) (*harness, *testlog.Buffer) {
		logs := &testlog.Buffer{}
		log := hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Debug})
		s, err := gitsync.New(gitsync.Options{Source: gitsync.Source{URL: url, Dir: filepath.Join(t.TempDir(), "content"), Timeout: gitTimeout}, Helper: helper, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		h := start(t, writeTree(t, specTree()), func(o *server.Options) { o.Syncer, o.Logger = helperSyncer{s}, log })
		server.SetRefreshAnswerWait(h.srv, wait)
		return h, logs
	}

	t.Run("git gives up first", func(t *testing.T) {
		t.Parallel()
		h, _ := serve(t, time.Second, 30*time.Second) // the wait of the default; git gives up after 1 s
		out := h.callJSON(t, "refresh_skills", nil)
		if out["success"] != false || out["in_background"] != nil || !strings.Contains(out["message"].(string), "did not answer within 1s") {
			t.Errorf("refresh_skills = %v; want the sync's failure naming the git timeout", out)
		}
	})

	t.Run("git outlasts the wait", func(t *testing.T) {
		t.Parallel()
		h, logs := serve(t, 2*time.Second, 50*time.Millisecond)
		out := h.callJSON(t, "refresh_skills", nil)
		msg, _ := out["message"].(string)
		if out["success"] != false || out["in_background"] != true || out["skills_reindexed"] != float64(6) ||
			!strings.Contains(msg, "goes on in the background") || !strings.Contains(msg, "next refresh_skills call") {
			t.Errorf("refresh_skills while git works = %v; want success false, in_background, and where to see the outcome", out)
		}
		out = h.callJSON(t, "refresh_skills", nil) // git has 2 s to go
		if out["in_background"] != true || !strings.Contains(out["message"].(string), "still running in the background") {
			t.Errorf("refresh_skills during the background refresh = %v; want it still running", out)
		}
		deadline := time.Now().Add(60 * time.Second) // git gives up after 2 s; 60 s is for a loaded machine
		for !strings.Contains(logs.String(), "has ended") {
			if time.Now().After(deadline) {
				t.Fatalf("the background refresh did not end:\n%s", logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		server.SetRefreshAnswerWait(h.srv, 0) // the default: this refresh ends before the answer
		out = h.callJSON(t, "refresh_skills", nil)
		msg, _ = out["message"].(string)
		t.Logf("refresh_skills after the background refresh: %s", msg)
		if out["in_background"] != nil || !strings.HasPrefix(msg, "The previous refresh, which went on in the background, ended at ") ||
			strings.Count(msg, "did not answer within 2s") != 2 {
			t.Errorf("refresh_skills after the background refresh = %v; want its outcome, then this refresh's", out)
		}
		if !strings.Contains(logs.String(), "did not answer within 2s") {
			t.Errorf("the log does not tell the background refresh's outcome:\n%s", logs.String())
		}
	})
}
