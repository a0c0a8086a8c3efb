package server_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

func TestToolsList(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	res, err := h.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: input schema %s is not an object schema", tool.Name, b)
		}
		sort.Strings(s.Required)
		required[tool.Name] = s.Required
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
	}
	want := map[string][]string{
		"get_skill": nil, "list_skills": nil, "get_asset": {"file", "skill_path"},
		"run_script": {"file", "skill_path"}, "report_usage": {"skill_path", "useful"}, "refresh_skills": nil,
	}
	if !reflect.DeepEqual(required, want) {
		t.Errorf("tools and required args = %v, want %v", required, want)
	}
}

func TestListSkills(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	tests := []struct {
		name, path string
		want       string
	}{
		{"unknown path is empty", "nope", `[]`},
		{"leaf", "ui/react/auth", `[{"name":"auth","path":"ui/react/auth","description":"React authentication components and patterns",` +
			`"keywords":["react","auth","component","login"],"assetCount":5,"scriptCount":1,"children":[]}]`},
		{"category by folder name", "ui", `[{"name":"ui","path":"ui/_index","description":"UI rules","keywords":["ui"],"assetCount":1,"scriptCount":0,"children":[` +
			`{"name":"react","path":"ui/react/_index","description":"React rules","keywords":["react","component"],"assetCount":1,"scriptCount":0,"children":[` +
			`{"name":"auth","path":"ui/react/auth","description":"React authentication components and patterns","keywords":["react","auth","component","login"],"assetCount":5,"scriptCount":1,"children":[]}]}]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr := h.call(t, "list_skills", map[string]any{"path": tt.path})
			if isErr || text != tt.want {
				t.Errorf("got %s (isError %v)\nwant %s", text, isErr, tt.want)
			}
		})
	}
	t.Run("whole tree has _root on top", func(t *testing.T) {
		text, _ := h.call(t, "list_skills", map[string]any{})
		var nodes []struct {
			Path     string `json:"path"`
			Children []struct {
				Path string `json:"path"`
			} `json:"children"`
		}
		if err := json.Unmarshal([]byte(text), &nodes); err != nil {
			t.Fatal(err)
		}
		if len(nodes) != 1 || nodes[0].Path != "_root" {
			t.Fatalf("top = %+v, want only _root", nodes)
		}
		var kids []string
		for _, c := range nodes[0].Children {
			kids = append(kids, c.Path)
		}
		if want := []string{"api/auth", "no-inherit", "ui/_index"}; !reflect.DeepEqual(kids, want) {
			t.Errorf("children of _root = %v, want %v", kids, want)
		}
	})
}

func TestGetAsset(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	t.Run("own text asset", func(t *testing.T) {
		text, _ := h.call(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "AuthProvider.tsx"})
		want := `{"skill_path":"ui/react/auth","file":"AuthProvider.tsx","content":"export const AuthProvider = 1;\n","size_bytes":31,"type":"template"}`
		if text != want {
			t.Errorf("got %s\nwant %s", text, want)
		}
		ev := h.events.last(t)
		if ev.Type != core.EventAssetServed || ev.Data["is_inherited"] != false || ev.Data["size_bytes"] != 31 || ev.Data["asset_type"] != "template" {
			t.Errorf("event = %+v", ev)
		}
	})
	t.Run("override beats the parent's file", func(t *testing.T) {
		out := h.callJSON(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "component-base.tsx"})
		if out["content"] != "export const Overridden = 1;\n" || out["resolved_from"] != nil {
			t.Errorf("got %v, want the skill's own override", out)
		}
	})
	t.Run("inherited asset", func(t *testing.T) {
		out := h.callJSON(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "global.css"})
		if out["content"] != "body{}\n" || out["resolved_from"] != "_root" || out["type"] != "style" {
			t.Errorf("got %v, want global.css resolved from _root", out)
		}
		if ev := h.events.last(t); ev.Data["is_inherited"] != true {
			t.Errorf("event = %+v, want is_inherited", ev)
		}
	})
	t.Run("binary asset", func(t *testing.T) {
		out := h.callJSON(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "flow.png"})
		raw, _ := base64.StdEncoding.DecodeString(out["content_base64"].(string))
		if string(raw) != "\x89PNG\r\n\x1a\nbinary" || out["mime_type"] != "image/png" || out["content"] != nil {
			t.Errorf("got %v", out)
		}
	})
	t.Run("undeclared binary extension that is not UTF-8", func(t *testing.T) {
		out := h.callJSON(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "tool.wasm"})
		raw, _ := base64.StdEncoding.DecodeString(out["content_base64"].(string))
		if string(raw) != "\x00asm\x01\x00\x00\x00\xff" || out["mime_type"] != "application/octet-stream" {
			t.Errorf("got %v", out)
		}
	})
	t.Run("script through get_asset", func(t *testing.T) {
		out := h.callJSON(t, "get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "scaffold.sh"})
		if out["type"] != "script" || !strings.Contains(out["content"].(string), "scaffold") {
			t.Errorf("got %v", out)
		}
	})
}

func TestGetAssetErrors(t *testing.T) {
	t.Parallel()
	files := specTree()
	files["ui/react/auth/big.txt"] = strings.Repeat("x", 2000)
	files["big.md"] = "---\ndescription: d\nkeywords: [big]\nassets:\n  - file: big.txt\n---\n"
	files["big/big.txt"] = strings.Repeat("x", 2000)
	dir := writeTree(t, files)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	files2 := "---\ndescription: d\nkeywords: [link]\nassets:\n  - file: leak.txt\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "link.md"), []byte(files2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	h := start(t, dir, func(o *server.Options) { o.Config.Assets.MaxSizeBytes = 1000 })
	tests := []struct {
		name        string
		skill, file string
		want        []string
	}{
		{"unknown skill", "ui/vue", "x", []string{"Skill not found: ui/vue"}},
		{"dot-dot", "ui/react/auth", "../auth.md", []string{"Path traversal", "../auth.md"}},
		{"absolute", "ui/react/auth", "/etc/passwd", []string{"Path traversal", "absolute"}},
		{"backslash", "ui/react/auth", `..\auth.md`, []string{"Path traversal", "backslash"}},
		{"drive letter", "ui/react/auth", "C:/x", []string{"Path traversal", "drive letter"}},
		{"nul byte", "ui/react/auth", "a\x00b", []string{"Path traversal", "NUL"}},
		{"not declared", "ui/react/auth", "nothere.txt", []string{"nothere.txt", "ui/react/auth"}},
		{"declared but missing", "ui/react/auth", "ghost.txt", []string{"ghost.txt"}},
		{"too large", "big", "big.txt", []string{"big.txt", "2000", "1000"}},
		{"symlink out of the resource dir", "link", "leak.txt", []string{"Path traversal", "leak.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := h.callError(t, "get_asset", map[string]any{"skill_path": tt.skill, "file": tt.file})
			mustContain(t, msg, tt.want...)
			if strings.Contains(msg, "secret") && !strings.Contains(msg, "secret.txt") {
				t.Errorf("message leaks file content: %q", msg)
			}
		})
	}
	mustContain(t, h.callError(t, "get_asset", map[string]any{"skill_path": "ui/react/auth"}), "missing required argument(s): file")
}

func TestReportUsage(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	text, isErr := h.call(t, "report_usage", map[string]any{"skill_path": "ui/react/auth", "useful": true, "comment": "great"})
	if want := `{"recorded":true,"message":"Feedback recorded for ui/react/auth"}`; text != want || isErr {
		t.Errorf("got %s, want %s", text, want)
	}
	ev := h.events.last(t)
	if ev.Type != core.EventSkillFeedback || ev.Data["useful"] != true || ev.Data["comment"] != "great" {
		t.Errorf("event = %+v", ev)
	}
	mustContain(t, h.callError(t, "report_usage", map[string]any{"skill_path": "ui/react/auth"}), "missing required argument(s): useful")
	// Feedback on a path that is not (or no longer) indexed is still recorded (§8.5).
	if out := h.callJSON(t, "report_usage", map[string]any{"skill_path": "removed/skill", "useful": false}); out["message"] != "Feedback recorded for removed/skill" {
		t.Errorf("got %v", out)
	}
	mustContain(t, h.callError(t, "report_usage", map[string]any{"skill_path": "ui/react/auth", "useful": "yes"}), `argument "useful" must be a boolean`)
}

func TestRefreshSkillsLocal(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	h := start(t, dir, nil)
	if err := os.WriteFile(filepath.Join(dir, "db.md"), []byte("---\ndescription: Databases\nkeywords: [database]\n---\nDB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _ := h.call(t, "refresh_skills", nil)
	want := `{"success":true,"mode":"local","skills_reindexed":7,"message":"Reindexed from local directory (no git sync configured)."}`
	if text != want {
		t.Errorf("got %s, want %s", text, want)
	}
	if ev := h.events.last(t); ev.Type != core.EventRefresh || ev.Data["mode"] != "local" || ev.Data["skills_reindexed"] != 7 {
		t.Errorf("event = %+v", ev)
	}
	if out := h.callJSON(t, "get_skill", map[string]any{"context": "database"}); out["skill_path"] != "db" {
		t.Errorf("after refresh got %v, want the new skill", out)
	}
}

// TestConcurrentGetSkillDuringRefresh proves under -race that readers always
// see one consistent snapshot while the index is rebuilt.
func TestConcurrentGetSkillDuringRefresh(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "React login with auth"}})
				if err != nil || res.IsError {
					errs <- "get_skill failed"
					return
				}
				if !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"skill_path":"ui/react/auth"`) {
					errs <- "inconsistent answer: " + res.Content[0].(*mcp.TextContent).Text
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		if _, isErr := h.call(t, "refresh_skills", nil); isErr {
			t.Fatal("refresh failed")
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestPanickingHandlerKeepsServing(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	h.srv.MCP().AddTool(&mcp.Tool{Name: "boom", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { panic("kaboom") })
	mustContain(t, h.callError(t, "boom", map[string]any{}), "Internal error", "kaboom")
	if out := h.callJSON(t, "get_skill", map[string]any{"context": "React login with auth"}); out["skill_path"] != "ui/react/auth" {
		t.Errorf("server did not keep serving: %v", out)
	}
}
