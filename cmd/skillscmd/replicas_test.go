package skillscmd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// replicaToken is the bearer token of the replicas of TestReplicasAgree.
const replicaToken = "replica-token-0123456789abcdef"

// gitIn runs the real git in dir.
func gitIn(t *testing.T, gitBin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gitBin, args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// replica is one serve --http --stateless process.
type replica struct {
	*runningServer
	base string // http://127.0.0.1:PORT
}

func startReplica(t *testing.T, ctx context.Context, repo, state, ref, signers string) *replica {
	t.Helper()
	cmd := exec.Command(binPath, "serve", "--http", "127.0.0.1:0", "--stateless")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_REPO=file://" + repo, "SKILLS_STATE_DIR=" + state,
		"SKILLS_REF=" + ref, "SKILLS_VERIFY=signed", "SKILLS_ALLOWED_SIGNERS=" + signers, "SKILLS_HTTP_TOKEN=" + replicaToken}
	rs := startServing(t, ctx, cmd)
	return &replica{runningServer: rs, base: strings.TrimSuffix(rs.endpoint, httpguard.MCPPath)}
}

// readyz is what the unauthenticated readiness probe gets: its status code
// and body.
func (r *replica) readyz(t *testing.T) (int, string) {
	t.Helper()
	resp, err := http.Get(r.base + httpguard.ReadyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// waitReady polls /readyz, as the kubelet does, until it answers 200.
func (r *replica) waitReady(t *testing.T, ctx context.Context) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if code, _ := r.readyz(t); code == http.StatusOK {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("/readyz never answered 200\n%s", r.logs.String())
		case <-tick.C:
		}
	}
}

// status is the authenticated /healthz.
func (r *replica) status(t *testing.T) server.Health {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.base+httpguard.HealthPath, nil)
	req.Header.Set("Authorization", "Bearer "+replicaToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h server.Health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// servedCommit asks the replica over MCP: refresh_skills, then get_skill's
// _meta provenance. It returns the commit get_skill says it serves and the
// refresh answer.
func (r *replica) servedCommit(t *testing.T, ctx context.Context) (string, refreshAnswer) {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "replica-test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: r.endpoint, HTTPClient: &http.Client{Transport: bearerTransport(replicaToken)}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "refresh_skills"})
	if err != nil {
		t.Fatal(err)
	}
	var out refreshAnswer
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": "release"}})
	if err != nil || res.IsError {
		t.Fatalf("get_skill: %v %+v\n%s", err, res, r.logs.String())
	}
	var p server.Provenance
	if err := json.Unmarshal([]byte(jsonOf(t, res.Meta[server.MetaProvenance])), &p); err != nil {
		t.Fatal(err)
	}
	return p.Commit, out
}

// Two replicas over one bare remote, pinned and verifying: both serve the
// pinned commit whatever is pushed; restarted with a new pin whose commit is
// not signed, each keeps serving the old commit and is not ready; restarted
// with a signed new pin, each serves it and is ready.
func TestReplicasAgree(t *testing.T) {
	t.Parallel()
	gitBin, keygen := needSigningTools(t)
	key, pub := sshKey(t, keygen, "release-bot")
	signers := filepath.Join(t.TempDir(), "allowed_signers")
	if err := os.WriteFile(signers, []byte("release-bot@example.com "+pub+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := newContentRepo(t)
	skill := func(v string) map[string]string {
		return map[string]string{"skills/_root.md": "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n",
			"skills/release.md": "---\ndescription: Release\nkeywords: [release]\n---\nRelease " + v + ".\n"}
	}
	v1 := repo.gitCommit(t, gitBin, keygen, key, skill("one"))
	gitIn(t, gitBin, repo.dir, "tag", "v1", v1)
	v2 := repo.gitCommit(t, gitBin, keygen, key, skill("two"))
	gitIn(t, gitBin, repo.dir, "tag", "v2", v2)
	v3 := repo.gitCommit(t, gitBin, keygen, "", skill("three, unsigned"))
	gitIn(t, gitBin, repo.dir, "tag", "v3", v3)
	gitIn(t, gitBin, repo.dir, "push", "-q", "origin", "--tags")

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	states := []string{t.TempDir(), t.TempDir()}
	replicas := make([]*replica, 2)
	for i := range replicas {
		replicas[i] = startReplica(t, ctx, repo.bare, states[i], "v1", signers)
	}
	repo.gitCommit(t, gitBin, keygen, key, skill("head of main")) // pushed after the start: the pin holds
	for i, r := range replicas {
		r.waitReady(t, ctx)
		if code, body := r.readyz(t); code != http.StatusOK || strings.TrimSpace(body) != `{"status":"ready"}` {
			t.Errorf("replica %d /readyz: %d %s, want 200 and the status alone", i, code, body)
		}
		commit, refresh := r.servedCommit(t, ctx)
		if commit != v1 || refresh.CommitHash != v1 {
			t.Errorf("replica %d serves %s (refresh says %s), want the pinned v1 %s", i, commit, refresh.CommitHash, v1)
		}
		if h := r.status(t); h.Commit != v1 || h.Provenance == nil || !h.Provenance.Verified || h.Provenance.Ref != "v1" || !h.Provenance.Pinned || !h.Ready {
			t.Errorf("replica %d /healthz = %+v (provenance %+v), want v1 verified, pinned and ready", i, h, h.Provenance)
		}
	}

	// The pin moves to an unsigned commit: each replica, restarted, keeps
	// serving v1 and is not ready.
	for i, r := range replicas {
		r.stop(t, ctx)
		replicas[i] = startReplica(t, ctx, repo.bare, states[i], "v3", signers)
	}
	for i, r := range replicas {
		commit, refresh := r.servedCommit(t, ctx)
		if commit != v1 || !strings.Contains(refresh.Refused, v3) || !strings.Contains(refresh.Refused, "not signed") {
			t.Errorf("replica %d with an unsigned pin: serves %s, refresh %+v; want v1 %s kept and %s refused as not signed", i, commit, refresh, v1, v3)
		}
		if code, body := r.readyz(t); code != http.StatusServiceUnavailable || strings.TrimSpace(body) != `{"status":"not ready"}` {
			t.Errorf("replica %d /readyz with the pin not served: %d %s, want 503 not ready", i, code, body)
		}
	}

	// The pin moves to a signed commit: each serves it once verified, and is ready.
	for i, r := range replicas {
		r.stop(t, ctx)
		replicas[i] = startReplica(t, ctx, repo.bare, states[i], "v2", signers)
	}
	for i, r := range replicas {
		r.waitReady(t, ctx)
		if commit, _ := r.servedCommit(t, ctx); commit != v2 {
			t.Errorf("replica %d with the pin at v2 serves %s, want %s", i, commit, v2)
		}
	}
}
