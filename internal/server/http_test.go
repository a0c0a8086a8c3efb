package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// httpServer builds a server over files and serves its HTTP handler on a
// loopback httptest server.
func httpServer(t *testing.T, files map[string]string, configure func(*server.Options), hopts httpguard.Options) *httptest.Server {
	t.Helper()
	idx := index.New(index.Options{Roots: []index.Root{{Dir: writeTree(t, files), Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	opts := server.Options{Index: idx, Config: config.Default()}
	if configure != nil {
		configure(&opts)
	}
	ts := httptest.NewServer(server.New(opts).HTTPHandler(hopts))
	t.Cleanup(ts.Close)
	return ts
}

// connectHTTP connects a go-sdk client to the endpoint of ts.
func connectHTTP(t *testing.T, ts *httptest.Server, token string) (*mcp.ClientSession, error) {
	t.Helper()
	return testhttp.Connect(t, ts.URL+httpguard.MCPPath, token)
}

func TestHTTPServesToolsInBothModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		stateless bool
		// wantSession: a sessionful endpoint hands out Mcp-Session-Id at initialize.
		wantSession bool
	}{
		{"with sessions", false, true},
		{"stateless", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httpServer(t, specTree(), nil, httpguard.Options{Stateless: tt.stateless})
			cs, err := connectHTTP(t, ts, "")
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			for _, want := range []string{"get_skill", "list_skills", "get_asset", "report_usage", "refresh_skills"} {
				if !strings.Contains(","+strings.Join(names, ",")+",", ","+want+",") {
					t.Errorf("tools/list: got %v, want it to contain %s", names, want)
				}
			}
			if strings.Contains(","+strings.Join(names, ",")+",", ",run_script,") {
				t.Errorf("tools/list: got %v, want no run_script (refused over HTTP without scripts.allow_remote)", names)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "React login with auth"}})
			if err != nil {
				t.Fatalf("get_skill: %v", err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError {
				t.Fatalf("get_skill: got error %s", text)
			}
			mustContain(t, text, `"skill_path":"ui/react/auth"`, "Auth rules")

			resp := testhttp.PostInitialize(t, ts.URL+httpguard.MCPPath, nil)
			if got := resp.Header.Get("Mcp-Session-Id") != ""; got != tt.wantSession {
				t.Errorf("Mcp-Session-Id present: got %v, want %v", got, tt.wantSession)
			}
		})
	}
}

// TestHTTPStatelessNegotiatesLatestProtocol records why --stateless exists: the
// go-sdk serves protocol 2026-07-28 (server/discover, the protocol the Skills
// extension is written against) only on a stateless endpoint.
func TestHTTPStatelessNegotiatesLatestProtocol(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		stateless bool
		want      string
	}{
		{"with sessions", false, "2025-11-25"},
		{"stateless", true, "2026-07-28"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httpServer(t, specTree(), nil, httpguard.Options{Stateless: tt.stateless})
			cs, err := connectHTTP(t, ts, "")
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != tt.want {
				t.Errorf("negotiated protocol: got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHTTPRunScriptNeedsAllowRemote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		allowRemote bool
		wantError   bool
		want        []string
	}{
		{"off by default", false, true, []string{"over HTTP is disabled", "SKILLS_SCRIPTS_ALLOW_REMOTE=true"}},
		{"on with allow_remote", true, false, []string{`"exit_code":3`, "deploying to prod in eu"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httpServer(t, scriptTree(), func(o *server.Options) {
				o.Runners = shellRunners(t, o.Config)
				o.Config.Scripts.AllowRemote = tt.allowRemote
			}, httpguard.Options{})
			cs, err := connectHTTP(t, ts, "")
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
				"skill_path": "tools/deploy", "file": "scripts/deploy.sh", "args": map[string]any{"env": "prod", "region": "eu"}}})
			if err != nil {
				t.Fatalf("run_script: %v", err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError != tt.wantError {
				t.Fatalf("run_script: got isError %v (%s), want %v", res.IsError, text, tt.wantError)
			}
			mustContain(t, text, tt.want...)
		})
	}
	t.Run("the remote check comes before every other step", func(t *testing.T) {
		ts := httpServer(t, scriptTree(), nil, httpguard.Options{})
		cs, err := connectHTTP(t, ts, "")
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
			"skill_path": "no/such/skill", "file": "../../etc/passwd", "args": map[string]any{}}})
		if err != nil {
			t.Fatalf("run_script: %v", err)
		}
		mustContain(t, res.Content[0].(*mcp.TextContent).Text, "over HTTP is disabled")
	})
}

func TestHTTPHealth(t *testing.T) {
	t.Parallel()
	synced := time.Date(2026, 3, 4, 5, 6, 7, 8_000_000, time.UTC)
	tests := []struct {
		name string
		sync func() server.SyncState
		want server.Health
	}{
		{"local mode", nil, server.Health{Status: "ok", Mode: "local", Skills: 6, Ready: true}},
		{"git mode", func() server.SyncState { return server.SyncState{Commit: "0123abcd", LastSync: synced} },
			server.Health{Status: "ok", Mode: "git", Skills: 6, Commit: "0123abcd", LastSync: "2026-03-04T05:06:07.008Z", Ready: true}},
		{"git mode before the first sync", func() server.SyncState { return server.SyncState{Commit: "0123abcd"} },
			server.Health{Status: "ok", Mode: "git", Skills: 6, Commit: "0123abcd", Ready: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httpServer(t, specTree(), func(o *server.Options) { o.Sync = tt.sync }, httpguard.Options{})
			resp := testhttp.Get(t, ts.URL+httpguard.HealthPath, nil)
			body := testhttp.ReadBody(t, resp)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("got %d %q (%s), want 200 application/json", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			var got server.Health
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatalf("body %s: %v", body, err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			mustContain(t, body, `"last_sync":`, `"commit":`) // always present, empty in local mode
		})
	}
	t.Run("only GET", func(t *testing.T) {
		ts := httpServer(t, specTree(), nil, httpguard.Options{})
		resp := testhttp.Post(t, ts.URL+httpguard.HealthPath, "{}", nil)
		if testhttp.ReadBody(t, resp); resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST /healthz: got %d, want 405", resp.StatusCode)
		}
	})
}

// shellRunners registers the exec runner for .sh, as the server binary does.
func shellRunners(t *testing.T, cfg config.Config) *core.Registry[core.Runner] {
	t.Helper()
	testenv.RequireTool(t, strings.Fields(cfg.Scripts.Runners[".sh"])[0])
	reg := core.NewRegistry[core.Runner]("runner")
	r, err := exec.New(cfg.Scripts.Runners[".sh"], exec.WithGrace(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(".sh", r)
	return reg
}
