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
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// edgeServer serves a writable skills tree over HTTP and returns the server
// (to rebuild), its test server and the tree's directory.
func edgeServer(t *testing.T, sets []string, hopts httpguard.Options) (*server.Server, *httptest.Server, string) {
	t.Helper()
	srv, ts, dir, _ := edgeServerStreams(t, sets, hopts)
	return srv, ts, dir
}

// edgeServerStreams is edgeServer, and a channel that receives each time the
// server flushes the opening of a GET stream (a session's standalone SSE
// stream): from then on the go-sdk delivers notifications on it.
func edgeServerStreams(t *testing.T, sets []string, hopts httpguard.Options) (*server.Server, *httptest.Server, string, chan struct{}) {
	t.Helper()
	dir := writeTree(t, mixedTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Index: idx, Config: config.Default(), ToolSets: sets})
	opened := make(chan struct{}, 8)
	h := srv.HTTPHandler(hopts)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w = &flushSignal{ResponseWriter: w, flushed: opened}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return srv, ts, dir, opened
}

// flushSignal sends on flushed after each flush of the response. The go-sdk
// flushes a standalone SSE stream's opening while holding the stream, which
// it makes deliverable before letting go of it.
type flushSignal struct {
	http.ResponseWriter
	flushed chan struct{}
}

// FlushError is what http.ResponseController.Flush calls.
func (f *flushSignal) FlushError() error {
	err := http.NewResponseController(f.ResponseWriter).Flush()
	select {
	case f.flushed <- struct{}{}:
	default:
	}
	return err
}

// Unwrap lets http.ResponseController reach the connection.
func (f *flushSignal) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// notes counts the list_changed notifications a client receives, and the
// acknowledgements of its subscriptions/listen (2026-07-28).
type notes struct{ tools, prompts, resources, acked chan struct{} }

func newNotes() *notes {
	return &notes{make(chan struct{}, 8), make(chan struct{}, 8), make(chan struct{}, 8), make(chan struct{}, 8)}
}

func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { n.tools <- struct{}{} },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { n.prompts <- struct{}{} },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { n.resources <- struct{}{} },
	}
}

// client is a go-sdk client with n's handlers that also notes each
// notifications/subscriptions/acknowledged.
func (n *notes) client() *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "edges", Version: "1"}, n.options())
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "notifications/subscriptions/acknowledged" {
				n.acked <- struct{}{}
			}
			return res, err
		}
	})
	return c
}

// listening waits until the server can deliver list_changed notifications
// to cs: at 2026-07-28 the go-sdk client opens subscriptions/listen in the
// background after Connect returns, and the server notifies only listening
// sessions; over HTTP with sessions the client opens its GET stream in the
// background, and a notification sent before it is dropped (no event
// store). Before either, a rebuild's notifications are lost, not late.
func listening(t *testing.T, cs *mcp.ClientSession, n *notes, getStream chan struct{}) {
	t.Helper()
	wait := func(c chan struct{}, what string) {
		select {
		case <-c:
		case <-time.After(60 * time.Second): // a safety net
			t.Fatalf("no %s within 60 s", what)
		}
	}
	switch {
	case cs.InitializeResult().ProtocolVersion >= "2026-07-28":
		wait(n.acked, "notifications/subscriptions/acknowledged")
	case getStream != nil:
		wait(getStream, "GET stream")
	}
}

// got waits (bounded, a safety net) for a notification on c, or reports
// none within quiet when want is false.
func got(c chan struct{}, want bool) bool {
	wait := 100 * time.Millisecond
	if want {
		wait = 30 * time.Second
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
	t.Parallel()
	for _, sets := range [][]string{{"core"}, {"skill"}, {"sk"}, {"core", "skill", "sk"}} {
		wantTools := len(sets) > 1 || sets[0] != "core"
		t.Run(strings.Join(sets, "+")+"/in-memory", func(t *testing.T) {
			n := newNotes()
			dir := writeTree(t, mixedTree())
			idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
			if _, err := idx.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			srv := server.New(server.Options{Index: idx, Config: config.Default(), ToolSets: sets})
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.MCP().Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := n.client().Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
			listening(t, cs, n, nil)
			addPDFSkill(t, dir)
			if _, err := srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkNotes(t, n, wantTools)
		})
		for _, mode := range []struct {
			name      string
			stateless bool
		}{{"http sessions", false}, {"stateless 2026-07-28", true}} {
			t.Run(strings.Join(sets, "+")+"/"+mode.name, func(t *testing.T) {
				srv, ts, dir, getStream := edgeServerStreams(t, sets, httpguard.Options{Stateless: mode.stateless})
				n := newNotes()
				cs, err := n.client().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + httpguard.MCPPath, MaxRetries: -1}, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cs.Close() })
				listening(t, cs, n, getStream)
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
	t.Parallel()
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
			_, ts, _ := edgeServer(t, nil, httpguard.Options{Stateless: tt.stateless})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "edges", Version: "1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + httpguard.MCPPath, MaxRetries: -1},
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
	t.Parallel()
	_, ts, _ := edgeServer(t, nil, httpguard.Options{})
	resp := testhttp.Post(t, ts.URL+httpguard.MCPPath, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
	body := testhttp.ReadBody(t, resp)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"code":-32600`) || !strings.Contains(body, `"id":1`) {
		t.Errorf("tools/list before initialize: got %d %s, want 400 with -32600 and the id", resp.StatusCode, body)
	}
	resp = testhttp.Post(t, ts.URL+httpguard.MCPPath, `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, nil)
	body = testhttp.ReadBody(t, resp)
	if !strings.Contains(body, `"code":-32601`) {
		t.Errorf("server/discover with sessions: got %d %s, want -32601", resp.StatusCode, body)
	}
}

// TestUnauthorizedPointsAtNoOAuth: the 401 challenge names no OAuth
// metadata, and the OAuth discovery documents are 404 without a token.
func TestUnauthorizedPointsAtNoOAuth(t *testing.T) {
	t.Parallel()
	_, ts, _ := edgeServer(t, nil, httpguard.Options{Token: "s3cret"})
	resp := testhttp.PostInitialize(t, ts.URL+httpguard.MCPPath, nil)
	testhttp.ReadBody(t, resp)
	if h := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || h != "Bearer" {
		t.Errorf("no token: got %d with %q, want 401 with a bare Bearer challenge", resp.StatusCode, h)
	}
	resp = testhttp.PostInitialize(t, ts.URL+httpguard.MCPPath, map[string]string{"Authorization": "Bearer wrong"})
	testhttp.ReadBody(t, resp)
	if h := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, `Bearer error="invalid_token"`) || strings.Contains(h, "resource_metadata") || strings.Contains(h, "realm") {
		t.Errorf("wrong token: got %q, want invalid_token without realm or resource_metadata", h)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"} {
		resp := testhttp.Get(t, ts.URL+p, nil)
		testhttp.ReadBody(t, resp)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: got %d, want 404", p, resp.StatusCode)
		}
	}
}
