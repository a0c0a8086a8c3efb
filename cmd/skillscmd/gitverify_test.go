package skillscmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// needSigningTools makes a test need git and ssh-keygen, which make real
// signatures: a skip naming the missing tool on a developer's machine, a
// failure in CI (.ci/run installs Debian git and openssh-client).
func needSigningTools(t *testing.T) (gitBin, keygen string) {
	t.Helper()
	return testenv.RequireTool(t, "git"), testenv.RequireTool(t, "ssh-keygen")
}

// sshKey makes an ed25519 key with ssh-keygen: its private key's path and
// its public key line.
func sshKey(t *testing.T, keygen, name string) (private, public string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", p).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(p + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return p, strings.TrimSpace(string(pub))
}

// gitCommit commits files in r's work tree with the real git, signed with
// the private key key ("" for an unsigned commit), pushes main and returns
// the commit's hash.
func (r *contentRepo) gitCommit(t *testing.T, gitBin, keygen, key string, files map[string]string) string {
	t.Helper()
	run := func(args ...string) string {
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = r.dir
		home := t.TempDir()
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for rel, content := range files {
		p := filepath.Join(r.dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", rel)
	}
	if key == "" {
		run("-c", "commit.gpgsign=false", "commit", "-q", "-m", "unsigned")
	} else {
		run("-c", "gpg.format=ssh", "-c", "user.signingkey="+key, "-c", "gpg.ssh.program="+keygen, "commit", "-q", "-S", "-m", "signed")
	}
	run("push", "-q", "origin", "HEAD:refs/heads/main")
	return run("rev-parse", "HEAD")
}

// Each wrong verification setting stops the start with exit 2 and a message
// naming it.
func TestVerifyStartErrors(t *testing.T) {
	t.Parallel()
	repo := newContentRepo(t)
	repo.commit(t, map[string]string{"skills/_root.md": "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n"})
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad_signers")
	if err := os.WriteFile(bad, []byte("# team\nalice@example.com ssh-ed25519 not-a-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git := map[string]string{"SKILLS_REPO": "file://" + repo.bare}
	tests := []struct {
		name  string
		env   map[string]string
		args  []string
		wants []string
	}{
		{"unknown value", map[string]string{"SKILLS_VERIFY": "gpg", "SKILLS_ALLOWED_SIGNERS": bad}, nil, []string{`SKILLS_VERIFY="gpg"`, `want "signed"`}},
		{"unknown value by flag", nil, []string{"--verify", "yes"}, []string{`SKILLS_VERIFY="yes"`}},
		{"no allowed signers", map[string]string{"SKILLS_VERIFY": "signed"}, nil, []string{"needs SKILLS_ALLOWED_SIGNERS"}},
		{"allowed signers that do not parse", map[string]string{"SKILLS_VERIFY": "signed", "SKILLS_ALLOWED_SIGNERS": bad}, nil, []string{bad, "line 2", "does not parse"}},
		{"local mode", map[string]string{"SKILLS_VERIFY": "signed", "SKILLS_DIR": dir}, nil, []string{"SKILLS_VERIFY=signed needs git mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SKILLS_STATE_DIR": t.TempDir()}
			for k, v := range git {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			var stdout, stderr bytes.Buffer
			code := New(nil).Run(context.Background(), append([]string{"serve"}, tt.args...), io.NopCloser(strings.NewReader("")), &stdout, &stderr, func(k string) string { return env[k] })
			if code != exitUsage {
				t.Fatalf("exit %d, want %d\n%s", code, exitUsage, stderr.String())
			}
			for _, w := range tt.wants {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}

// refreshAnswer is the part of refresh_skills' answer about verification.
type refreshAnswer struct {
	Success    bool   `json:"success"`
	CommitHash string `json:"commit_hash"`
	Verified   *bool  `json:"verified"`
	Refused    string `json:"refused"`
	Message    string `json:"message"`
}

// serve with SKILLS_VERIFY=signed over real signatures: the signed head is
// served; an unsigned head pushed after it is not, the signed one staying
// served, and the log and refresh_skills' answer name the commit and why; a
// first start on an unsigned head serves no skills and says so.
func TestServeSignedCommits(t *testing.T) {
	t.Parallel()
	gitBin, keygen := needSigningTools(t)
	key, pub := sshKey(t, keygen, "alice")
	signers := filepath.Join(t.TempDir(), "allowed_signers")
	if err := os.WriteFile(signers, []byte(`alice@example.com namespaces="git" `+pub+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := newContentRepo(t)
	signed := repo.gitCommit(t, gitBin, keygen, key, map[string]string{
		"skills/_root.md": "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n",
		"skills/go.md":    "---\ndescription: Go services\nkeywords: [golang]\n---\nUse contexts.\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	connect := func(t *testing.T, state string) (*mcp.ClientSession, *testlog.Buffer) {
		cmd := serverCmd(t, "SKILLS_DIR=", "SKILLS_REPO=file://"+repo.bare, "SKILLS_STATE_DIR="+state,
			"SKILLS_VERIFY=signed", "SKILLS_ALLOWED_SIGNERS="+signers)
		stderr := &testlog.Buffer{}
		cmd.Stderr = stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "verify-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs, stderr
	}
	call := func(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}

	cs, stderr := connect(t, t.TempDir())
	if got := call(t, cs, "get_skill", map[string]any{"skill_path": "go"}); !strings.Contains(got, "Use contexts.") {
		t.Fatalf("get_skill of the signed head = %s\n%s", got, stderr.String())
	}
	unsigned := repo.gitCommit(t, gitBin, keygen, "", map[string]string{"skills/rust.md": "---\ndescription: Rust\nkeywords: [rust]\n---\nUse clippy.\n"})
	var out refreshAnswer
	text := call(t, cs, "refresh_skills", nil)
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	if out.Success || out.CommitHash != signed || out.Verified == nil || !*out.Verified ||
		!strings.Contains(out.Refused, unsigned) || !strings.Contains(out.Refused, "not signed") || !strings.Contains(out.Message, unsigned) {
		t.Errorf("refresh_skills after an unsigned push = %s; want the signed %s served, verified, and the unsigned %s refused as not signed", text, signed, unsigned)
	}
	if got := call(t, cs, "get_skill", map[string]any{"skill_path": "rust"}); !strings.Contains(got, `"error":true`) {
		t.Errorf("the unsigned commit's skill is served: %s", got)
	}
	if log := stderr.String(); !strings.Contains(log, unsigned) || !strings.Contains(log, "not signed") {
		t.Errorf("the log does not name the refused commit and the reason:\n%s", log)
	}

	// A first start when the head is unsigned: served, with no skills.
	t.Run("first start unverified", func(t *testing.T) {
		cs, stderr := connect(t, t.TempDir())
		if got := call(t, cs, "list_skills", nil); strings.Contains(got, "go") {
			t.Errorf("list_skills with no verified commit = %s, want no skills", got)
		}
		if log := stderr.String(); !strings.Contains(log, "no skills are served") || !strings.Contains(log, unsigned) {
			t.Errorf("the log does not say no skills are served and why:\n%s", log)
		}
	})
}
