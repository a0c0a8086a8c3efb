package skillscmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// contentRepo is a bare "remote" plus a work clone that pushes to it.
type contentRepo struct {
	bare string
	work *git.Repository
	dir  string
}

func newContentRepo(t *testing.T) *contentRepo {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "content.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	work, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := work.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{bare}}); err != nil {
		t.Fatal(err)
	}
	return &contentRepo{bare: bare, work: work, dir: dir}
}

// commit writes files, commits them on main and pushes.
func (r *contentRepo) commit(t *testing.T, files map[string]string) string {
	t.Helper()
	wt, err := r.work.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(r.dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(rel); err != nil {
			t.Fatal(err)
		}
	}
	h, err := wt.Commit("update skills", &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Now()}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.work.Push(&git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{"+refs/heads/main:refs/heads/main"}}); err != nil {
		t.Fatal(err)
	}
	return h.String()
}

func TestGitModeServesAndRefreshes(t *testing.T) {
	t.Parallel()
	repo := newContentRepo(t)
	repo.commit(t, map[string]string{
		"config.yaml":     "matching:\n  min_score: 0.2\n",
		"skills/_root.md": "---\ndescription: Global\nkeywords: [global]\n---\nGlobal rules\n",
		"skills/go.md":    "---\ndescription: Go services\nkeywords: [golang, service]\n---\nUse contexts.\n",
	})
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_DIR=", "SKILLS_REPO=file://"+repo.bare, "SKILLS_STATE_DIR="+state, "GITHUB_TOKEN=ghp_supersecret")
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "git-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	callText := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v\n%s", name, err, res, stderr.String())
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := callText("get_skill", map[string]any{"context": "golang service"}); !strings.Contains(got, `"skill_path":"go"`) {
		t.Fatalf("get_skill = %s", got)
	}
	head := repo.commit(t, map[string]string{"skills/rust.md": "---\ndescription: Rust crates\nkeywords: [rust, crate]\n---\nUse clippy.\n"})
	var out struct {
		Success         bool   `json:"success"`
		CommitHash      string `json:"commit_hash"`
		FilesChanged    int    `json:"files_changed"`
		SkillsReindexed int    `json:"skills_reindexed"`
		LastSync        string `json:"last_sync"`
	}
	text := callText("refresh_skills", nil)
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	if !out.Success || out.CommitHash != head || out.FilesChanged != 1 || out.SkillsReindexed != 3 || out.LastSync == "" {
		t.Errorf("refresh_skills = %s, want success at %s with 1 file changed and 3 skills", text, head)
	}
	if got := callText("get_skill", map[string]any{"context": "rust crate"}); !strings.Contains(got, `"skill_path":"rust"`) {
		t.Errorf("after refresh get_skill = %s", got)
	}
	if strings.Contains(text+stderr.String(), "ghp_supersecret") {
		t.Error("the token leaked into a result or a log line")
	}
	if _, err := os.Stat(filepath.Join(state, "content", "skills", "rust.md")); err != nil {
		t.Errorf("clone not in the state directory: %v", err)
	}
}

func TestGitModeWithoutCacheOrNetwork(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"SKILLS_REPO": "file:///nonexistent/repo.git", "SKILLS_STATE_DIR": t.TempDir()}
	code := New(nil).Run(context.Background(), nil, io.NopCloser(strings.NewReader("")), &stdout, &stderr, func(k string) string { return env[k] })
	if code != exitUsage || !strings.Contains(stderr.String(), "no cached copy") {
		t.Errorf("exit %d, stderr %q; want 2 and a message about the missing cache", code, stderr.String())
	}
}

// TestGitModeMissingBranch: SKILLS_BRANCH naming a branch the content repo
// lacks stops the start saying the branch is missing and naming the
// remote's branches, not that the repository cannot be reached (issue 29).
func TestGitModeMissingBranch(t *testing.T) {
	t.Parallel()
	r := newContentRepo(t)
	r.commit(t, map[string]string{"skills/pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	_, errOut, code := runBin(t, []string{"SKILLS_REPO=" + r.bare, "SKILLS_BRANCH=master", "SKILLS_STATE_DIR=" + t.TempDir()}, "list")
	want := "the branch master does not exist in " + r.bare + "; its branches: main (set SKILLS_BRANCH to one of them)"
	if code != exitUsage || !strings.Contains(errOut, want) || strings.Contains(errOut, "cannot be reached") {
		t.Errorf("exit %d, want %d and %q:\n%s", code, exitUsage, want, errOut)
	}
}
