package skillscmd

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// echoGitServer answers every request with 403 and a body echoing the
// request's headers, as some git servers and proxies do in their errors.
func echoGitServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		fmt.Fprintf(&b, "upstream error for %s %s\n", r.Method, r.URL)
		for k, vs := range r.Header {
			for _, v := range vs {
				fmt.Fprintf(&b, "%s: %s\n", k, v)
			}
		}
		if u, p, ok := r.BasicAuth(); ok {
			fmt.Fprintf(&b, "user=%s password=%s escaped=%s\n", u, p, url.QueryEscape(p))
		}
		http.Error(w, b.String(), http.StatusForbidden) // go-git puts the body of a 401, 403 or 404 in its error
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/org/skills.git"
}

// tokenForms are the forms a leaked token took in the probe.
func tokenForms(token string) map[string]string {
	b64 := base64.StdEncoding.EncodeToString
	return map[string]string{
		"plain":               token,
		"url-encoded":         url.QueryEscape(token),
		"base64":              b64([]byte(token)),
		"basic user:TOKEN":    b64([]byte("x-access-token:" + token)),
		"base64 user:TOKEN 2": strings.TrimRight(b64([]byte("x-access-token:"+token)), "="),
	}
}

// TestTokenNeverInOutput points the server at a git server that echoes the
// request headers in its error (issue 16, item 11). Before, the token, base64
// in `Authorization: Basic …`, reached refresh_skills' result, the JSON-RPC
// output and the log; now no form of it appears anywhere.
func TestTokenNeverInOutput(t *testing.T) {
	t.Parallel()
	const token = "ghp_item11+Secret/Token=value"
	echo := echoGitServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	check := func(t *testing.T, where, text string) {
		t.Helper()
		for name, form := range tokenForms(token) {
			if strings.Contains(text, form) {
				t.Errorf("%s holds the token (%s):\n%s", where, name, text)
			}
		}
	}

	t.Run("refresh_skills with a cached clone", func(t *testing.T) {
		repo := newContentRepo(t)
		repo.commit(t, map[string]string{"skills/go.md": "---\ndescription: Go services\nkeywords: [golang, service]\n---\nUse contexts.\n"})
		state := t.TempDir()
		cachedCloneOf(t, repo, state, echo)
		cmd := serverCmd(t, "SKILLS_DIR=", "SKILLS_REPO="+echo, "SKILLS_STATE_DIR="+state, "GITHUB_TOKEN="+token, "SKILLS_LOG_LEVEL=trace")
		stderr := &testlog.Buffer{}
		cmd.Stderr = stderr
		var stdout bytes.Buffer
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "token-test", Version: "1"}, nil).Connect(ctx, &teeTransport{cmd: cmd, out: &stdout}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "refresh_skills", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("refresh_skills: %v", err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !strings.Contains(text, "upstream error") {
			t.Fatalf("refresh_skills = %s; want the echoed error, so that the test means something", text)
		}
		cs.Close()
		check(t, "refresh_skills' result", text)
		check(t, "the JSON-RPC output", stdout.String())
		check(t, "the log", stderr.String())
	})

	t.Run("start without a clone", func(t *testing.T) {
		cmd := serverCmd(t, "SKILLS_DIR=", "SKILLS_REPO="+echo, "SKILLS_STATE_DIR="+t.TempDir(), "GITHUB_TOKEN="+token, "SKILLS_LOG_LEVEL=trace")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Stdin = strings.NewReader("")
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(out.String(), "upstream error") {
			t.Fatalf("exit %v; want a failed start showing the echoed error:\n%s", err, out.String())
		}
		check(t, "the start error", out.String())
	})
}

// teeTransport is a CommandTransport whose server output is also copied to out.
type teeTransport struct {
	cmd *exec.Cmd
	out io.Writer
}

// Connect implements mcp.Transport.
func (tt *teeTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := tt.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := tt.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := tt.cmd.Start(); err != nil {
		return nil, err
	}
	return (&mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(stdout, tt.out)), Writer: stdin}).Connect(ctx)
}
