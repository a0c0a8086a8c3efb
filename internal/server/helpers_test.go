package server_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// writeTree writes files (relative path → content) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// recorder is an in-memory core.Tracker.
type recorder struct {
	mu     sync.Mutex
	events []core.Event
}

func (r *recorder) Track(typ string, data map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, core.Event{Type: typ, Data: data})
}

func (r *recorder) last(t *testing.T) core.Event {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) == 0 {
		t.Fatal("no event recorded")
	}
	return r.events[len(r.events)-1]
}

type harness struct {
	srv     *server.Server
	session *mcp.ClientSession
	events  *recorder
	dir     string
}

// start builds an index over dir, a server over it, and a go-sdk client
// connected through the in-memory transport.
func start(t *testing.T, dir string, configure func(*server.Options)) *harness {
	t.Helper()
	return startRoots(t, []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, configure, nil)
}

// call invokes a tool and returns its text and isError.
func (h *harness) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s): got %d content items, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("CallTool(%s): content is %T, want text", name, res.Content[0])
	}
	return text.Text, res.IsError
}

// callJSON invokes a tool that must succeed and decodes its JSON text.
func (h *harness) callJSON(t *testing.T, name string, args any) map[string]any {
	t.Helper()
	text, isErr := h.call(t, name, args)
	if isErr {
		t.Fatalf("CallTool(%s, %v): unexpected error %s", name, args, text)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("CallTool(%s): result is not a JSON object: %v\n%s", name, err, text)
	}
	return out
}

// callError invokes a tool that must fail and returns its message, checking the error shape.
func (h *harness) callError(t *testing.T, name string, args any) string {
	t.Helper()
	text, isErr := h.call(t, name, args)
	if !isErr {
		t.Fatalf("CallTool(%s, %v): got success %s, want an error", name, args, text)
	}
	var body struct {
		Error   bool   `json:"error"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(text), &body); err != nil || !body.Error || body.Message == "" {
		t.Fatalf("CallTool(%s): error text %q is not {\"error\":true,\"message\":…}", name, text)
	}
	return body.Message
}

func mustContain(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("got %q, want it to contain %q", got, w)
		}
	}
}

// specTree is the example tree of spec 000 §6 and §7.3.
func specTree() map[string]string {
	return map[string]string{
		"_root.md":                           "---\ndescription: Global rules\nkeywords: [global]\nassets:\n  - file: global.css\n    description: Global styles\n    type: style\n---\nGlobal rules\n",
		"_root/global.css":                   "body{}\n",
		"ui/_index.md":                       "---\ndescription: UI rules\nkeywords: [ui]\nassets:\n  - file: design-tokens.json\n    type: config\n---\nUI rules\n",
		"ui/_index/design-tokens.json":       "{}\n",
		"ui/react/_index.md":                 "---\ndescription: React rules\nkeywords: [react, component]\nassets:\n  - file: component-base.tsx\n    description: base\n    type: template\n---\nReact rules\n",
		"ui/react/_index/component-base.tsx": "export const Base = 1;\n",
		"ui/react/auth.md": "---\ndescription: React authentication components and patterns\nkeywords: [react, auth, component, login]\n" +
			"assets:\n  - file: AuthProvider.tsx\n    type: template\n  - file: tool.wasm\n  - file: component-base.tsx\n    type: template\n  - file: flow.png\n    type: image\n  - file: ghost.txt\n" +
			"scripts:\n  - file: scaffold.sh\n    description: Scaffold\n    execution: server\n    args:\n      - name: name\n---\nAuth rules\n",
		"ui/react/auth/AuthProvider.tsx":   "export const AuthProvider = 1;\n",
		"ui/react/auth/component-base.tsx": "export const Overridden = 1;\n",
		"ui/react/auth/flow.png":           "\x89PNG\r\n\x1a\nbinary",
		"ui/react/auth/tool.wasm":          "\x00asm\x01\x00\x00\x00\xff",
		"ui/react/auth/scaffold.sh":        "echo scaffold $SKILL_ARG_NAME\n",
		"api/auth.md":                      "---\ndescription: API authentication with JWT middleware\nkeywords: [auth, api, jwt]\n---\nAPI auth rules\n",
		"no-inherit.md":                    "---\ndescription: Standalone\nkeywords: [standalone]\ninherit: false\n---\n\nJust me.\n",
	}
}

// mustContent is snap.Content(s), failing the test on an error.
func mustContent(t *testing.T, snap *index.Snapshot, s *core.Skill) string {
	t.Helper()
	text, err := snap.Content(s)
	if err != nil {
		t.Fatalf("Content(%s): %v", s.Path, err)
	}
	return text
}
