package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// legacyProtocol is the last protocol version with the initialize handshake.
const legacyProtocol = "2025-11-25"

// Wire shapes of the skills extension, decoded by the test client.
type (
	wireListSkillsParams struct {
		mcp.ParamsBase
		Cursor string `json:"cursor,omitempty"`
	}
	wireGetSkillParams struct {
		mcp.ParamsBase
		URI string `json:"uri"`
	}
	wireReadDirectoryParams struct {
		mcp.ParamsBase
		URI    string `json:"uri"`
		Cursor string `json:"cursor,omitempty"`
	}
	wireSkillResource struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	}
	wireSkill struct {
		URI         string              `json:"uri"`
		Frontmatter json.RawMessage     `json:"frontmatter"`
		Resources   []wireSkillResource `json:"resources"`
	}
	wireListSkillsResult struct {
		mcp.ResultBase
		ResultType string      `json:"resultType"`
		Skills     []wireSkill `json:"skills"`
		NextCursor string      `json:"nextCursor"`
		TTLMs      *int        `json:"ttlMs"`
		CacheScope string      `json:"cacheScope"`
	}
	wireGetSkillResult struct {
		mcp.ResultBase
		ResultType string    `json:"resultType"`
		Skill      wireSkill `json:"skill"`
		NextCursor *string   `json:"nextCursor"`
		TTLMs      *int      `json:"ttlMs"`
		CacheScope string    `json:"cacheScope"`
	}
	wireReadDirectoryResult struct {
		mcp.ResultBase
		ResultType string          `json:"resultType"`
		Resources  []*mcp.Resource `json:"resources"`
		NextCursor string          `json:"nextCursor"`
	}
)

// skillsHarness is a server over a skills directory and a go-sdk client that
// can call the extension's methods.
type skillsHarness struct {
	srv     *server.Server
	idx     *index.Index
	session *mcp.ClientSession
	dir     string
}

// startSkills indexes dir, serves it and connects a client with copts (nil for
// none) speaking protocol ("" for the go-sdk's latest).
func startSkills(t *testing.T, dir string, configure func(*server.Options), copts *mcp.ClientOptions, protocol string) *skillsHarness {
	t.Helper()
	idx := index.New(index.Options{Root: dir, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	opts := server.Options{Index: idx, Config: config.Default()}
	if configure != nil {
		configure(&opts)
	}
	srv := server.New(opts)
	return &skillsHarness{srv: srv, idx: idx, dir: dir, session: connectSkillsClient(t, srv, copts, protocol)}
}

// connectSkillsClient connects a new client to srv over the in-memory transport.
func connectSkillsClient(t *testing.T, srv *server.Server, copts *mcp.ClientOptions, protocol string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "skills-test-client", Version: "1"}, copts)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*wireListSkillsParams, *wireListSkillsResult](client, "skills/list"),
		mcp.AddSendingCustomMethod[*wireGetSkillParams, *wireGetSkillResult](client, "skills/get"),
		mcp.AddSendingCustomMethod[*wireReadDirectoryParams, *wireReadDirectoryResult](client, "resources/directory/read"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	listening := awaitListen(client, copts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	listening(t, cs)
	// The server handles notifications/initialized, which Connect sent without
	// waiting, before it answers this ping: a list_changed sent after this
	// function returns reaches the session (under load it otherwise could be
	// skipped as uninitialized, and a test waited for it in vain).
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return cs
}

func (h *skillsHarness) listSkills(t *testing.T, cursor string) (*wireListSkillsResult, error) {
	t.Helper()
	return mcp.CallCustomMethod[*wireListSkillsParams, *wireListSkillsResult](context.Background(), h.session, "skills/list", &wireListSkillsParams{Cursor: cursor})
}

// allSkills follows skills/list to its last page.
func (h *skillsHarness) allSkills(t *testing.T) (skills []wireSkill, pages int) {
	t.Helper()
	cursor := ""
	for {
		res, err := h.listSkills(t, cursor)
		if err != nil {
			t.Fatalf("skills/list (cursor %q): %v", cursor, err)
		}
		skills, pages = append(skills, res.Skills...), pages+1
		if res.NextCursor == "" {
			return skills, pages
		}
		if pages > 1000 {
			t.Fatal("skills/list never ends")
		}
		cursor = res.NextCursor
	}
}

func (h *skillsHarness) getSkill(t *testing.T, uri string) (*wireGetSkillResult, error) {
	t.Helper()
	return mcp.CallCustomMethod[*wireGetSkillParams, *wireGetSkillResult](context.Background(), h.session, "skills/get", &wireGetSkillParams{URI: uri})
}

func (h *skillsHarness) mustGetSkill(t *testing.T, uri string) wireSkill {
	t.Helper()
	res, err := h.getSkill(t, uri)
	if err != nil {
		t.Fatalf("skills/get %s: %v", uri, err)
	}
	return res.Skill
}

func (h *skillsHarness) readDirectory(t *testing.T, uri, cursor string) (*wireReadDirectoryResult, error) {
	t.Helper()
	return mcp.CallCustomMethod[*wireReadDirectoryParams, *wireReadDirectoryResult](context.Background(), h.session, "resources/directory/read", &wireReadDirectoryParams{URI: uri, Cursor: cursor})
}

// readBytes reads uri and returns its bytes (text or decoded blob) and content.
func (h *skillsHarness) readBytes(t *testing.T, uri string) ([]byte, *mcp.ResourceContents) {
	t.Helper()
	res, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("resources/read %s: got %d contents, want 1", uri, len(res.Contents))
	}
	c := res.Contents[0]
	if c.Blob != nil {
		return c.Blob, c
	}
	return []byte(c.Text), c
}

// rpcCode returns the JSON-RPC error code of err, or 0.
func rpcCode(err error) int64 {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return werr.Code
	}
	return 0
}

func sha256Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skillsTree mixes Agent Skills folders (one nested under a prefix) and a
// spec-000 tree with inheritance and resource directories.
func skillsTree() map[string]string {
	return map[string]string{
		"pdf-processing/SKILL.md": "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\n" +
			"metadata:\n  version: \"2.1.0\"\n  author: acme\n---\n\n# PDF processing\n\nChoose the matching template from `templates/`.\n",
		"pdf-processing/references/FORMS.md":              "# Forms\n",
		"pdf-processing/scripts/extract.py":               "print('extract')\n",
		"pdf-processing/templates/invoice.md":             "# Invoice\n",
		"pdf-processing/templates/purchase-order.md":      "# Purchase order\n",
		"pdf-processing/templates/regional/eu-invoice.md": "# EU invoice\n",
		"pdf-processing/assets/logo.png":                  "\x89PNG\r\n\x1a\n\x00\x01\xfe\xff",
		"pdf-processing/assets/empty.txt":                 "",
		"pdf-processing/scripts/fill.wasm":                "\x00asm\x01\x00\x00\x00",
		"pdf-processing/assets/latin1.txt":                "caf\xe9\n",
		"pdf-processing/.secret":                          "hidden",
		"acme/billing/refunds/SKILL.md":                   "---\nname: refunds\ndescription: Process customer refund requests per company policy\n---\nRefunds.\n",
		"acme/billing/refunds/examples/email.md":          "Dear customer,\n",
		"_root.md":                                        "---\ndescription: Global rules\nkeywords: [global]\n---\nGlobal rules\n",
		"_root/global.css":                                "body{}\n",
		"ui/_index.md":                                    "---\ndescription: UI rules\nkeywords: [ui]\n---\nUI rules\n",
		"ui/_index/design-tokens.json":                    "{}\n",
		"ui/react/_index.md":                              "---\ndescription: React rules\nkeywords: [react]\n---\nReact rules\n",
		"ui/react/auth.md":                                "---\ndescription: 'React authentication: components and patterns'\nkeywords: [auth]\n---\nAuth rules\n",
		"ui/react/auth/AuthProvider.tsx":                  "export const AuthProvider = 1;\n",
		"ui/react/auth/flow.png":                          "\x89PNG\r\n\x1a\nbinary",
		"api/auth.md":                                     "---\ndescription: API authentication\nkeywords: [api]\n---\nAPI auth rules\n",
	}
}

func TestSkillsCapability(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			h := startSkills(t, writeTree(t, skillsTree()), nil, nil, protocol)
			caps := h.session.InitializeResult().Capabilities
			got, ok := caps.Extensions[skillsext.ID]
			if !ok {
				t.Fatalf("got extensions %v, want %s", caps.Extensions, skillsext.ID)
			}
			if want := map[string]any{"directoryRead": true}; !reflect.DeepEqual(got, want) {
				t.Errorf("got settings %#v, want %#v", got, want)
			}
			if caps.Resources == nil || !caps.Resources.ListChanged {
				t.Errorf("got resources capability %+v, want one with listChanged", caps.Resources)
			}
			if caps.Tools == nil || !caps.Tools.ListChanged {
				t.Errorf("got tools capability %+v, want it kept", caps.Tools)
			}
		})
	}
}

// addSkill writes a new Agent Skill into dir.
func addSkill(t *testing.T, dir, name string) {
	t.Helper()
	p := filepath.Join(dir, name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: Added later\n---\nNew.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func waitSignal(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10s", what)
	}
}

func TestResourceListChangedAfterRebuild(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			changed := make(chan struct{}, 8)
			logs := &testlog.Buffer{}
			h := startSkills(t, writeTree(t, skillsTree()), func(o *server.Options) { o.Logger = debugLogger(logs) },
				&mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} }}, protocol)
			const updated = "skills extension resources updated"
			before := strings.Count(logs.String(), updated)

			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(logs.String(), updated); got != before {
				t.Errorf("an unchanged rebuild updated the resources (%d → %d log lines), want no change", before, got)
			}

			addSkill(t, h.dir, "postgres")
			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitSignal(t, changed, "notifications/resources/list_changed")
			if _, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://postgres/SKILL.md"}); err != nil {
				t.Errorf("reading the new skill: %v", err)
			}

			// refresh_skills answers once the new index serves; the resources
			// are synced after, and their notification follows the answer.
			addSkill(t, h.dir, "mysql")
			if res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "refresh_skills", Arguments: map[string]any{}}); err != nil || res.IsError {
				t.Fatalf("refresh_skills: %v %+v", err, res)
			}
			waitSignal(t, changed, "notifications/resources/list_changed after refresh_skills")
			if _, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://mysql/SKILL.md"}); err != nil {
				t.Errorf("reading the skill added before refresh_skills: %v", err)
			}
		})
	}
}

// rawSession is a legacy client speaking JSON-RPC by hand, so it can stop
// between initialize and notifications/initialized.
type rawSession struct {
	conn mcp.Connection
	msgs chan jsonrpc.Message
}

func connectRaw(t *testing.T, srv *server.Server) *rawSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := &rawSession{conn: conn, msgs: make(chan jsonrpc.Message, 64)}
	go func() {
		defer close(r.msgs)
		for {
			msg, err := conn.Read(ctx)
			if err != nil {
				return
			}
			r.msgs <- msg
		}
	}()
	t.Cleanup(func() { _ = conn.Close(); _ = ss.Wait() })
	return r
}

// call sends the request id; notify sends a notification.
func (r *rawSession) call(t *testing.T, id float64, method, params string) {
	t.Helper()
	jid, err := jsonrpc.MakeID(id)
	if err != nil {
		t.Fatal(err)
	}
	r.write(t, &jsonrpc.Request{ID: jid, Method: method, Params: json.RawMessage(params)})
}

func (r *rawSession) notify(t *testing.T, method, params string) {
	t.Helper()
	r.write(t, &jsonrpc.Request{Method: method, Params: json.RawMessage(params)})
}

func (r *rawSession) write(t *testing.T, req *jsonrpc.Request) {
	t.Helper()
	if err := r.conn.Write(context.Background(), req); err != nil {
		t.Fatalf("writing %s: %v", req.Method, err)
	}
}

// until returns the list_changed notifications (resources and tools) read
// before the response to the request id.
func (r *rawSession) until(t *testing.T, id int64) []string {
	t.Helper()
	var notes []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case msg, ok := <-r.msgs:
			if !ok {
				t.Fatal("connection closed")
			}
			switch m := msg.(type) {
			case *jsonrpc.Response:
				if m.ID.Raw() == id {
					return notes
				}
			case *jsonrpc.Request:
				if m.Method == "notifications/resources/list_changed" || m.Method == "notifications/tools/list_changed" {
					notes = append(notes, m.Method)
				}
			}
		case <-timeout:
			t.Fatalf("no response to request %v within 10s", id)
		}
	}
}

// TestListChangedOnlyAfterInitialized: a rebuild that changes the skill://
// resources (and, with the skill tool set, the skill tool's catalogue) is not
// announced to a session that has not sent notifications/initialized (file
// 001: only after the handshake), and is to one that has.
func TestListChangedOnlyAfterInitialized(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		toolSets     []string
		notification string
		clientOpts   func(changed chan struct{}) *mcp.ClientOptions
		// exact: the session gets exactly this notification (resources only are
		// announced with the core tools); otherwise it is among those it gets.
		exact bool
	}{
		{"resources", nil, "notifications/resources/list_changed", func(changed chan struct{}) *mcp.ClientOptions {
			return &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} }}
		}, true},
		{"tools", []string{server.ToolSetSkill}, "notifications/tools/list_changed", func(changed chan struct{}) *mcp.ClientOptions {
			return &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, skillsTree())
			idx := index.New(index.Options{Root: dir})
			if _, err := idx.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			srv := server.New(server.Options{Index: idx, Config: config.Default(), ToolSets: tt.toolSets})
			raw := connectRaw(t, srv) // first session: the go-sdk notifies it first
			raw.call(t, 1, "initialize", `{"protocolVersion":"`+legacyProtocol+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
			raw.until(t, 1)
			changed := make(chan struct{}, 8)
			connectSkillsClient(t, srv, tt.clientOpts(changed), legacyProtocol)

			// Before notifications/initialized: the raw session is skipped while the
			// initialized client, notified after it, gets the notification.
			addSkill(t, dir, "postgres")
			if _, err := srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitSignal(t, changed, "notification to the initialized client")
			raw.call(t, 2, "ping", `{}`)
			got := raw.until(t, 2)
			if tt.exact && len(got) != 0 || !tt.exact && slices.Contains(got, tt.notification) {
				t.Errorf("uninitialized session got %v, want no %s", got, tt.notification)
			}

			// After it, the raw session is notified too.
			raw.notify(t, "notifications/initialized", `{}`)
			raw.call(t, 3, "ping", `{}`) // the server handles the notification before this ping
			raw.until(t, 3)
			addSkill(t, dir, "redis")
			if _, err := srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitSignal(t, changed, "second notification to the initialized client")
			raw.call(t, 4, "ping", `{}`)
			got = raw.until(t, 4)
			if tt.exact && !reflect.DeepEqual(got, []string{tt.notification}) || !tt.exact && !slices.Contains(got, tt.notification) {
				t.Errorf("initialized session got %v, want %s", got, tt.notification)
			}
		})
	}
}
