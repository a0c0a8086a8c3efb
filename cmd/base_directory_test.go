package skillscmd

import (
	"context"
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
