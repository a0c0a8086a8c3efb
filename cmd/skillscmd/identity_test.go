package skillscmd

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// treeServer is the binary serving a skills tree written by the test, with a
// go-sdk client on its stdio.
type treeServer struct {
	ctx    context.Context
	cs     *mcp.ClientSession
	stderr *testlog.Buffer
}

// serveTree writes files into a temp dir and serves it with every tool set.
func serveTree(t *testing.T, files map[string]string, env ...string) (*treeServer, string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	return serveDir(t, dir, env...), dir
}

// serveDir serves dir with every tool set.
func serveDir(t *testing.T, dir string, env ...string) *treeServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s := &treeServer{ctx: ctx, stderr: &testlog.Buffer{}}
	cmd := serverCmd(t, append([]string{"SKILLS_DIR=" + dir, "SKILLS_TOOLS=core,skill,sk"}, env...)...)
	cmd.Stderr = s.stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "identity-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // no client-side caches: every answer is the server's
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, s.stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	s.cs = cs
	return s
}

// call calls a tool and returns its text and whether it is an error result.
func (s *treeServer) call(t *testing.T, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, s.stderr.String())
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// toolDescription is the description of the named tool once the index is
// built: the skill tool is registered again when it is, and the client hears
// of it by tools/list_changed, so an empty catalogue is asked again.
func (s *treeServer) toolDescription(t *testing.T, name string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); { // a safety net: the build may be slow under load
		res, err := s.cs.ListTools(s.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			if tool.Name == name && (name != "skill" || strings.Contains(tool.Description, "<skill>") || strings.Contains(tool.Description, "<collection ")) {
				return tool.Description
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no tool %s with a catalogue", name)
	return ""
}

// agentSkill is a SKILL.md with a name and a description.
func agentSkill(name, description, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body
}

// validateDir runs the binary's validate on dir and returns its output and exit code.
func validateDir(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"validate"}, append(args, dir)...)...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestIdentityIsThePath (issue 15, item 1): skills sharing a name are all
// served and reachable by path; a bare name loads the skill whose folder bears
// it, or answers with the candidates; a folder named otherwise never
// impersonates a skill; validate names both files of every collision.
func TestIdentityIsThePath(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"plugins/a/skills/review/SKILL.md": agentSkill("review", "Review plugin A's way.", "A's review.\n"),
		"plugins/b/skills/review/SKILL.md": agentSkill("review", "Review plugin B's way.", "B's review.\n"),
		"code-review/SKILL.md":             agentSkill("code-review", "The genuine code review.", "Genuine.\n"),
		"aaa-helper/SKILL.md":              agentSkill("code-review", "An impersonator sorting first.", "Impostor.\n"),
		"Deploy/SKILL.md":                  agentSkill("Deploy", "Deploy, capitalised.", "Upper.\n"),
		"deploy/SKILL.md":                  agentSkill("deploy", "Deploy, lowercase.", "Lower.\n"),
		"ﬁle-tools/SKILL.md":               agentSkill("ﬁle-tools", "File tools with a ligature.", "Ligature.\n"),
		"file-tools/SKILL.md":              agentSkill("file-tools", "File tools, plain.", "Plain.\n"),
	}
	s, dir := serveTree(t, files)
	tests := []struct {
		name, lookup string
		wantErr      bool
		want         []string
	}{
		{"same name twice: ambiguous, both paths listed", "review", true, []string{"plugins/a/skills/review", "plugins/b/skills/review"}},
		{"each by its path", "plugins/b/skills/review", false, []string{"B's review."}},
		{"the folder bearing the name wins", "code-review", false, []string{"Genuine."}},
		{"the impersonator by its path", "aaa-helper", false, []string{"Impostor."}},
		{"case-only twins are ambiguous", "DEPLOY", true, []string{"Deploy", "deploy"}},
		{"one twin by its exact path", "Deploy", false, []string{"Upper."}},
		{"normalization twins each by name", "file-tools", false, []string{"Plain."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr := s.call(t, "skill", map[string]any{"name": tt.lookup})
			if isErr != tt.wantErr {
				t.Fatalf("skill %q: error %v, want %v: %s", tt.lookup, isErr, tt.wantErr, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("skill %q: got %q, want it to hold %q", tt.lookup, text, w)
				}
			}
		})
	}
	desc := s.toolDescription(t, "skill")
	for _, name := range []string{"<name>plugins/a/skills/review</name>", "<name>plugins/b/skills/review</name>",
		"<name>code-review</name>", "<name>aaa-helper</name>", "<name>Deploy</name>", "<name>deploy</name>"} {
		if !strings.Contains(desc, name) {
			t.Errorf("skill description lacks %s:\n%s", name, desc)
		}
	}
	out, code := validateDir(t, dir)
	if code != 1 {
		t.Errorf("validate: exit %d, want 1\n%s", code, out)
	}
	for _, want := range [][]string{
		{"plugins/b/skills/review/SKILL.md", "name collision", "plugins/a/skills/review/SKILL.md"},
		{"code-review/SKILL.md", "name collision", "aaa-helper/SKILL.md"},
		{"aaa-helper/SKILL.md", `must equal the folder name "aaa-helper"`},
		{"deploy/SKILL.md", "differing only in case", "Deploy/SKILL.md"},
		{"ﬁle-tools/SKILL.md", "Unicode-normalized", "file-tools/SKILL.md"},
	} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			all := true
			for _, w := range want {
				all = all && strings.Contains(line, w)
			}
			found = found || all
		}
		if !found {
			t.Errorf("validate: no line holding all of %q in\n%s", want, out)
		}
	}
}
