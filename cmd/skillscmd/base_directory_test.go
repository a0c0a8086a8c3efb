package skillscmd

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The skill tool's Base directory is the skill's folder on disk over stdio,
// where the client shares the file system (file 003), and its skill:// URI
// over HTTP, where the server's path would mean nothing to the client and
// disclose the server's layout.
func TestSkillBaseDirectoryByTransport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, cs := range binaryClients(t, "--tools", "core,skill") {
		t.Run(name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skill", Arguments: map[string]any{"name": "commit-messages"}})
			if err != nil || res.IsError {
				t.Fatalf("skill commit-messages: %v %+v", err, res)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			want := "Base directory: skill://commit-messages\n"
			if name == "stdio" {
				want = "Base directory: " + filepath.Join(examplesDir(t), "commit-messages") + "\n"
			}
			if !strings.Contains(text, want) {
				t.Errorf("want %q in\n%.300s", want, text)
			}
			if name != "stdio" && strings.Contains(text, examplesDir(t)) {
				t.Errorf("the server's path reaches a remote client:\n%.300s", text)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			if got, _ := sc["base_directory"].(string); !strings.Contains(want, got) || got == "" {
				t.Errorf("structured base_directory %q does not match the text's %q", got, want)
			}
		})
	}
}

// get_skill and a skill's prompt say the same base directory as `skill`
// (issue 29): an Agent Skill's body names scripts/… and reference files
// relative to its folder, which a client over stdio reads on disk and one
// over HTTP reads as skill:// resources. Spec 000's fields stay as they are.
func TestGetSkillAndPromptBaseDirectory(t *testing.T) {
	ctx := context.Background()
	for name, cs := range binaryClients(t, "--tools", "core") {
		t.Run(name, func(t *testing.T) {
			want := "skill://commit-messages"
			if name == "stdio" {
				want = filepath.Join(examplesDir(t), "commit-messages")
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": "commit-messages"}})
			if err != nil || res.IsError {
				t.Fatalf("get_skill commit-messages: %v %+v", err, res)
			}
			var text map[string]any
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &text); err != nil {
				t.Fatal(err)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			for where, got := range map[string]any{"text": text["base_directory"], "structuredContent": sc["base_directory"]} {
				if got != want {
					t.Errorf("%s: base_directory %v, want %q", where, got, want)
				}
			}
			for _, field := range []string{"skill_path", "score", "matched_keywords", "content", "assets", "scripts", "inherited_assets", "inherited_scripts"} {
				if _, ok := text[field]; !ok {
					t.Errorf("spec 000's field %s is missing: %v", field, text)
				}
			}
			// Tree skills get one too: their resource directory.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": "api/auth"}})
			if err != nil || res.IsError {
				t.Fatalf("get_skill api/auth: %v %+v", err, res)
			}
			treeWant := "skill://api/auth"
			if name == "stdio" {
				treeWant = filepath.Join(examplesDir(t), "api", "auth")
			}
			if sc, _ := res.StructuredContent.(map[string]any); sc["base_directory"] != treeWant {
				t.Errorf("api/auth: base_directory %v, want %q", sc["base_directory"], treeWant)
			}

			prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "commit-messages"})
			if err != nil {
				t.Fatal(err)
			}
			msg := prompt.Messages[0].Content.(*mcp.TextContent).Text
			if !strings.HasPrefix(msg, "Base directory: "+want+"\n\n") {
				t.Errorf("prompt does not start with its base directory %q:\n%.300s", want, msg)
			}
			if name != "stdio" && strings.Contains(msg, examplesDir(t)) {
				t.Errorf("the server's path reaches a remote client:\n%.300s", msg)
			}
		})
	}
}
