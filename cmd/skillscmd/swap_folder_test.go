package skillscmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestSkillFolderSwappedAfterIndexing starts the built binary, then replaces
// an Agent Skill's folder with a symlink to a directory outside the tree that
// holds a SKILL.md, an asset and a script of the same names (issue 16, item
// 1): get_skill served the outside body, get_asset and resources/read the
// outside file, run_script ran the outside script. Each now refuses.
func TestSkillFolderSwappedAfterIndexing(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "bash")
	const secret = "OUTSIDE-THE-TREE"
	skill := func(body, script, notes string) map[string]string {
		return map[string]string{
			"deploy/SKILL.md": "---\nname: deploy\ndescription: Deploying the service to production safely.\n" +
				"keywords: [deploy]\nassets:\n  - file: notes.txt\n    description: Notes\n" +
				"scripts:\n  - file: scripts/run.sh\n    description: Runs\n    execution: server\n---\n# Deploy\n" + body + "\n",
			"deploy/notes.txt":      notes,
			"deploy/scripts/run.sh": "#!/bin/sh\necho " + script + "\n",
		}
	}
	// release's body is never read before the swap: no cache can hide a read.
	release := func(body string) map[string]string {
		return map[string]string{"release/SKILL.md": "---\nname: release\ndescription: Cutting a release of the service.\nkeywords: [release]\n---\n# Release\n" + body + "\n"}
	}
	dir, outside, outsideRelease := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, dir, skill("inside body", "inside-script", "inside notes"))
	writeTree(t, dir, release("inside release"))
	writeTree(t, outsideRelease, map[string]string{"SKILL.md": release(secret + " release")["release/SKILL.md"]})
	writeTree(t, dir, map[string]string{"config.yaml": "scripts:\n  enabled: true\n  allowed_extensions: [\".sh\"]\n"})
	for rel, body := range skill(secret+" body", secret+"-script", secret+" notes") {
		writeTree(t, outside, map[string]string{strings.TrimPrefix(rel, "deploy/"): body})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir(), "SKILLS_DIR="+dir, "SKILLS_TOOLS=core,skill")
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "swap-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err.Error()
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
	var notesURI string
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources.Resources {
		if strings.HasSuffix(r.URI, "/notes.txt") {
			notesURI = r.URI
		}
	}
	readResource := func() string {
		if notesURI == "" {
			return ""
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: notesURI})
		if err != nil {
			return err.Error()
		}
		var b strings.Builder
		for _, c := range res.Contents {
			b.WriteString(c.Text)
		}
		return b.String()
	}
	probes := []struct {
		name string
		run  func() string
		want string // before the swap
	}{
		{"get_skill", func() string { return call("get_skill", map[string]any{"context": "deploy the service to production"}) }, "inside body"},
		{"get_asset", func() string { return call("get_asset", map[string]any{"skill_path": "deploy", "file": "notes.txt"}) }, "inside notes"},
		{"run_script", func() string {
			return call("run_script", map[string]any{"skill_path": "deploy", "file": "scripts/run.sh", "args": map[string]any{}})
		}, "inside-script"},
		{"resources/read", readResource, "inside notes"},
	}
	for _, p := range probes {
		if got := p.run(); !strings.Contains(got, p.want) {
			t.Fatalf("before the swap, %s = %q; want %q\n%s", p.name, got, p.want, stderr.String())
		}
	}
	for folder, target := range map[string]string{"deploy": outside, "release": outsideRelease} {
		swap := filepath.Join(dir, folder)
		if err := os.RemoveAll(swap); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, swap); err != nil {
			t.Fatal(err)
		}
	}
	probes = append(probes,
		struct {
			name string
			run  func() string
			want string
		}{"get_skill (a body not read before)", func() string { return call("get_skill", map[string]any{"context": "cutting a release"}) }, ""},
		struct {
			name string
			run  func() string
			want string
		}{"skill", func() string { return call("skill", map[string]any{"name": "deploy"}) }, ""},
	)
	for _, p := range probes {
		if got := p.run(); strings.Contains(got, secret) {
			t.Errorf("after the swap, %s served the outside tree: %q", p.name, got)
		}
	}
}
