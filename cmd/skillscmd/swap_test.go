package skillscmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestResourceFolderSwappedAfterIndexing starts the built binary, then
// replaces a skill's resource folder with a symlink to a directory outside
// the tree (issue 16, item 1: get_asset then served the outside file, as
// /etc/passwd in one probe): get_asset refuses it.
func TestResourceFolderSwappedAfterIndexing(t *testing.T) {
	t.Parallel()
	const secret = "outside-the-tree secret"
	outside := t.TempDir()
	dir := t.TempDir()
	writeTree(t, outside, map[string]string{"notes.txt": secret})
	writeTree(t, dir, map[string]string{
		"auth.md":        "---\nname: auth\ndescription: Auth conventions.\nkeywords: [auth]\nassets:\n  - file: notes.txt\n    description: Notes\n---\n# Auth\n",
		"auth/notes.txt": "inside notes",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir(), "SKILLS_DIR="+dir)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "swap-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	getAsset := func() string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_asset", Arguments: map[string]any{"skill_path": "auth", "file": "notes.txt"}})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcp.TextContent:
				b.WriteString(c.Text)
			case *mcp.EmbeddedResource:
				if c.Resource != nil {
					b.WriteString(c.Resource.Text)
				}
			}
		}
		return b.String()
	}
	if got := getAsset(); !strings.Contains(got, "inside notes") {
		t.Fatalf("before the swap: got %q, want the inside notes\n%s", got, stderr.String())
	}
	swap := filepath.Join(dir, "auth")
	if err := os.RemoveAll(swap); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, swap); err != nil {
		t.Fatal(err)
	}
	if got := getAsset(); strings.Contains(got, secret) {
		t.Errorf("after the swap: got %q, want a refusal", got)
	}
}
