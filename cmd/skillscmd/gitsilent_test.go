package skillscmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/internal/testnet"
)

// cachedCloneOf clones repo into state/content and points its origin at url,
// as if url had served it earlier.
func cachedCloneOf(t *testing.T, repo *contentRepo, state, url string) {
	t.Helper()
	clone, err := git.PlainClone(filepath.Join(state, "content"), false, &git.CloneOptions{URL: repo.bare, ReferenceName: plumbing.Main, SingleBranch: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clone.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Remotes["origin"].URLs = []string{url}
	if err := clone.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
}

// startSilentGit starts the built binary in git mode on url and times how
// long initialize takes to be answered.
func startSilentGit(ctx context.Context, t *testing.T, url, state string, env ...string) (*mcp.ClientSession, *testlog.Buffer, time.Duration, *mcpCmd) {
	t.Helper()
	cmd := serverCmd(t, append([]string{"SKILLS_DIR=", "SKILLS_REPO=" + url, "SKILLS_STATE_DIR=" + state}, env...)...)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "silent-git-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	return cs, stderr, time.Since(start), &mcpCmd{cmd.Process}
}

// mcpCmd is the server process, for signals.
type mcpCmd struct{ p *os.Process }

// TestGitRemoteNeverAnswers points the server at a remote that accepts
// connections and stays silent (issue 16, item 5). Before, initialize was
// never answered and SIGTERM was ignored; now initialize is answered within
// the start wait from the cached clone (or with no skills and a warning),
// refresh_skills answers with an error when the git timeout runs out, and
// SIGTERM ends the process at once even during a hung refresh.
//
// The bounds on time are far from both sides: what failed before hung for
// ever (or for the 60 s git timeout), what works answers in a few seconds at
// most on a loaded machine; a bound in between is the start wait plus 20 s.
func TestGitRemoteNeverAnswers(t *testing.T) {
	t.Parallel()
	url := testnet.SilentRemote(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("cached clone", func(t *testing.T) {
		repo := newContentRepo(t)
		repo.commit(t, map[string]string{"skills/go.md": "---\ndescription: Go services\nkeywords: [golang, service]\n---\nUse contexts.\n"})
		state := t.TempDir()
		cachedCloneOf(t, repo, state, url)
		cs, stderr, took, _ := startSilentGit(ctx, t, url, state, "SKILLS_GIT_TIMEOUT_SECONDS=2")
		defer cs.Close()
		t.Logf("initialize answered after %v", took.Round(time.Millisecond))
		if took > gitStartWait+20*time.Second {
			t.Errorf("initialize answered after %v; want within the start wait (%v)", took, gitStartWait)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "golang service"}})
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"skill_path":"go"`) {
			t.Errorf("get_skill from the cache: %v %+v\n%s", err, res, stderr.String())
		}
		start := time.Now()
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refresh_skills", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("refresh_skills: %v", err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		var out struct {
			Success bool   `json:"success"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal([]byte(text), &out)
		t.Logf("refresh_skills answered after %v: %s", time.Since(start).Round(time.Millisecond), text)
		if out.Success || !strings.Contains(out.Message, "did not answer within") {
			t.Errorf("refresh_skills = %s; want a failure naming the timeout", text)
		}
	})

	t.Run("no clone", func(t *testing.T) {
		cs, stderr, took, _ := startSilentGit(ctx, t, url, t.TempDir(), "SKILLS_GIT_TIMEOUT_SECONDS=60")
		defer cs.Close()
		t.Logf("initialize answered after %v", took.Round(time.Millisecond))
		if took > gitStartWait+20*time.Second {
			t.Errorf("initialize answered after %v; want within the start wait (%v)", took, gitStartWait)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_skills", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Errorf("list_skills with no clone yet: %v %+v", err, res)
		}
		if !strings.Contains(stderr.String(), "has not answered yet") {
			t.Errorf("no warning about the remote:\n%s", stderr.String())
		}
	})

	t.Run("SIGTERM during a hung refresh", func(t *testing.T) {
		repo := newContentRepo(t)
		repo.commit(t, map[string]string{"skills/go.md": "---\ndescription: Go services\nkeywords: [golang, service]\n---\nUse contexts.\n"})
		state := t.TempDir()
		// The remote closes the first sync's connection at once, and holds
		// the refresh's: it would hang for the 60 s git timeout, and SIGTERM
		// comes once the remote holds it.
		url, held := testnet.SilentRemoteAfter(t, 1)
		cachedCloneOf(t, repo, state, url)
		cs, stderr, _, proc := startSilentGit(ctx, t, url, state, "SKILLS_GIT_TIMEOUT_SECONDS=60")
		defer cs.Close()
		if !waitFor(30*time.Second, func() bool { return strings.Contains(stderr.String(), "content repo unreachable") }) {
			t.Fatalf("the first sync did not end\n%s", stderr.String())
		}
		go func() {
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refresh_skills", Arguments: map[string]any{}})
		}()
		select {
		case <-held:
		case <-time.After(30 * time.Second): // a safety net
			t.Fatalf("the refresh never reached the remote\n%s", stderr.String())
		}
		start := time.Now()
		if err := proc.p.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _, _ = proc.p.Wait(); close(exited) }()
		select {
		case <-exited:
			t.Logf("exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
		case <-time.After(20 * time.Second): // the refresh alone would hang 60 s
			t.Errorf("still running 20 s after SIGTERM\n%s", stderr.String())
			_ = proc.p.Kill()
		}
	})
}
