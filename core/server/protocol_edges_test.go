package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/index"
	"github.com/skills-mcp/skills-mcp/core/server"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// edgeServer serves a writable skills tree over HTTP and returns the server
// (to rebuild), its test server and the tree's directory.
func edgeServer(t *testing.T, sets []string, hopts server.HTTPOptions) (*server.Server, *httptest.Server, string) {
	t.Helper()
	dir := writeTree(t, mixedTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Index: idx, Config: core.DefaultConfig(), ToolSets: sets})
	ts := httptest.NewServer(srv.HTTPHandler(hopts))
	t.Cleanup(ts.Close)
	return srv, ts, dir
}

// notes counts the list_changed notifications a client receives.
type notes struct{ tools, prompts, resources chan struct{} }

func newNotes() *notes {
	return &notes{make(chan struct{}, 8), make(chan struct{}, 8), make(chan struct{}, 8)}
}

func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { n.tools <- struct{}{} },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { n.prompts <- struct{}{} },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { n.resources <- struct{}{} },
	}
}

// got waits (bounded, a safety net) for a notification on c, or reports
// none within quiet when want is false.
func got(c chan struct{}, want bool) bool {
	wait := 100 * time.Millisecond
	if want {
		wait = 10 * time.Second
	}
	select {
	case <-c:
		return true
	case <-time.After(wait):
		return false
	}
}

func addPDFSkill(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "pdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pdf", "SKILL.md"), []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nUse pdftk.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestListChangedEveryToolSet: a new skill sends resources/list_changed and
// prompts/list_changed to every client, and tools/list_changed where a tool
// lists skills (skill, sk), over stdio-like in-memory sessions and HTTP
// sessions at 2025-11-25 and stateless HTTP at 2026-07-28.
func TestListChangedEveryToolSet(t *testing.T) {
	for _, sets := range [][]string{{"core"}, {"skill"}, {"sk"}, {"core", "skill", "sk"}} {
		wantTools := len(sets) > 1 || sets[0] != "core"
		t.Run(strings.Join(sets, "+")+"/in-memory", func(t *testing.T) {
			n := newNotes()
			dir := writeTree(t, mixedTree())
			h := startRoots(t, []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, withSets(sets...), n.options())
			addPDFSkill(t, dir)
			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkNotes(t, n, wantTools)
		})
		for _, mode := range []struct {
			name      string
			stateless bool
		}{{"http sessions", false}, {"stateless 2026-07-28", true}} {
			t.Run(strings.Join(sets, "+")+"/"+mode.name, func(t *testing.T) {
				srv, ts, dir := edgeServer(t, sets, server.HTTPOptions{Stateless: mode.stateless})
				n := newNotes()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "edges", Version: "1"}, n.options()).
					Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + server.MCPPath, MaxRetries: -1}, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cs.Close() })
				addPDFSkill(t, dir)
				if _, err := srv.Rebuild(context.Background()); err != nil {
					t.Fatal(err)
				}
				checkNotes(t, n, wantTools)
			})
		}
	}
}

func checkNotes(t *testing.T, n *notes, wantTools bool) {
	t.Helper()
	if !got(n.resources, true) {
		t.Error("no resources/list_changed")
	}
	if !got(n.prompts, true) {
		t.Error("no prompts/list_changed")
	}
	if got(n.tools, wantTools) != wantTools {
		t.Errorf("tools/list_changed: got %v, want %v", !wantTools, wantTools)
	}
}

// TestStatelessAdvertisesWhatItDelivers: a stateless endpoint at the
// protocols before 2026-07-28 (no GET stream) promises no listChanged; an
// endpoint with sessions does, and at 2026-07-28 (subscriptions/listen) the
// stateless one does too.
func TestStatelessAdvertisesWhatItDelivers(t *testing.T) {
	for _, tt := range []struct {
		name      string
		stateless bool
		version   string
		want      bool
	}{
		{"sessions 2025-11-25", false, "2025-11-25", true},
		{"stateless 2025-11-25", true, "2025-11-25", false},
		{"stateless 2025-06-18", true, "2025-06-18", false},
		{"stateless 2026-07-28", true, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ts, _ := edgeServer(t, nil, server.HTTPOptions{Stateless: tt.stateless})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "edges", Version: "1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + server.MCPPath, MaxRetries: -1},
					&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cs.Close() })
			caps := cs.InitializeResult().Capabilities
			for name, lc := range map[string]bool{"tools": caps.Tools.ListChanged, "prompts": caps.Prompts.ListChanged, "resources": caps.Resources.ListChanged} {
				if lc != tt.want {
					t.Errorf("%s.listChanged: got %v, want %v (protocol %s)", name, lc, tt.want, cs.InitializeResult().ProtocolVersion)
				}
			}
		})
	}
}

// TestRequestBeforeInitialize: over HTTP with sessions a request without a
// session is 400 with -32600; server/discover there is -32601, from which a
// client falls back to initialize.
func TestRequestBeforeInitialize(t *testing.T) {
	_, ts, _ := edgeServer(t, nil, server.HTTPOptions{})
	resp := post(t, ts.URL+server.MCPPath, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
	body := readBody(t, resp)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"code":-32600`) || !strings.Contains(body, `"id":1`) {
		t.Errorf("tools/list before initialize: got %d %s, want 400 with -32600 and the id", resp.StatusCode, body)
	}
	resp = post(t, ts.URL+server.MCPPath, `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, nil)
	body = readBody(t, resp)
	if !strings.Contains(body, `"code":-32601`) {
		t.Errorf("server/discover with sessions: got %d %s, want -32601", resp.StatusCode, body)
	}
}

// TestUnauthorizedPointsAtNoOAuth: the 401 challenge names no OAuth
// metadata, and the OAuth discovery documents are 404 without a token.
func TestUnauthorizedPointsAtNoOAuth(t *testing.T) {
	_, ts, _ := edgeServer(t, nil, server.HTTPOptions{Token: "s3cret"})
	resp := postInitialize(t, ts.URL+server.MCPPath, nil)
	readBody(t, resp)
	if h := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || h != "Bearer" {
		t.Errorf("no token: got %d with %q, want 401 with a bare Bearer challenge", resp.StatusCode, h)
	}
	resp = postInitialize(t, ts.URL+server.MCPPath, map[string]string{"Authorization": "Bearer wrong"})
	readBody(t, resp)
	if h := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, `Bearer error="invalid_token"`) || strings.Contains(h, "resource_metadata") || strings.Contains(h, "realm") {
		t.Errorf("wrong token: got %q, want invalid_token without realm or resource_metadata", h)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"} {
		resp := get(t, ts.URL+p, nil)
		readBody(t, resp)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: got %d, want 404", p, resp.StatusCode)
		}
	}
}
