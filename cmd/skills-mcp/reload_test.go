package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLiveReload: a skill written to disk is served without a restart, and the
// client hears tools/list_changed because the skill tool's catalogue changed.
func TestLiveReload(t *testing.T) {
	dir := t.TempDir()
	writeFile := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("git/SKILL.md", "---\nname: git\ndescription: Git workflow\n---\nUse rebase.\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "reload-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cmd := serverCmd(t, "SKILLS_DIR="+dir, "SKILLS_TOOLS=core,skill,sk")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	text := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := text("skill", map[string]any{"name": "postgres"}); !strings.HasPrefix(got, "Skill 'postgres' not found.") {
		t.Fatalf("before: %s", got)
	}
	writeFile("postgres/SKILL.md", "---\nname: postgres\ndescription: PostgreSQL operations and query tuning\n---\nUse EXPLAIN ANALYZE.\n")
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatalf("no tools/list_changed after adding a skill\n%s", stderr.String())
	}
	if got := text("skill", map[string]any{"name": "Postgres"}); !strings.HasPrefix(got, "Loading: postgres\nBase directory: "+filepath.Join(dir, "postgres")) {
		t.Errorf("after: %s", got)
	}
	if got := text("get_skill", map[string]any{"context": "postgresql query tuning"}); !strings.Contains(got, `"skill_path":"postgres"`) {
		t.Errorf("get_skill after reload: %s", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "skill" && !strings.Contains(tool.Description, "<name>postgres</name>") {
			t.Errorf("skill description does not list the new skill:\n%s", tool.Description)
		}
	}
}

func TestUnknownToolSet(t *testing.T) {
	_, stderr, code := runCLI(t, map[string]string{"SKILLS_DIR": examplesDir(t), "SKILLS_TOOLS": "core,bogus"}, "serve")
	if code != exitUsage || !strings.Contains(stderr, `unknown tool set "bogus"`) || !strings.Contains(stderr, "core, sk, skill") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestLiveReloadSkOnly: with only the sk tools served (file 001), a change on
// disk still reaches the client as tools/list_changed.
func TestLiveReloadSkOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "git", "SKILL.md"), []byte("---\nname: git\ndescription: Git workflow\n---\nUse rebase.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "reload-sk", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cmd := serverCmd(t, "SKILLS_DIR="+dir, "SKILLS_TOOLS=sk")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	if err := os.MkdirAll(filepath.Join(dir, "postgres"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "postgres", "SKILL.md"), []byte("---\nname: postgres\ndescription: PostgreSQL tuning\n---\nEXPLAIN.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatalf("no tools/list_changed with the sk tools\n%s", stderr.String())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "skills_show", Arguments: map[string]any{"name": "postgres"}})
	if err != nil || res.IsError {
		t.Fatalf("skills_show: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(got, "EXPLAIN.") {
		t.Errorf("skills_show = %q", got)
	}
}
