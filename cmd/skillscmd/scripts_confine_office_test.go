package skillscmd

import (
	"archive/zip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestOfficeSkillWorksConfined runs a skill shaped like the document skills
// of public collections (testdata/confined-skills/office: Python that
// unpacks and repacks a zip document, bash that checks its parts against a
// list in the skill, Node that summarises them) through run_script of the
// built binary, confined (the default), with its cwd under a write root: the
// whole round trip works, and what the scripts wrote is in the cwd.
func TestOfficeSkillWorksConfined(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("confinement is Linux's")
	}
	for _, tool := range []string{"python3", "node", "bash"} {
		testenv.RequireTool(t, tool)
	}
	t.Parallel()
	skills := t.TempDir()
	if err := os.CopyFS(skills, os.DirFS("testdata/confined-skills")); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	writeZip(t, filepath.Join(work, "in.docx"), map[string]string{
		"[Content_Types].xml": "<Types/>",
		"word/document.xml":   "<w:document><w:body><w:p><w:r><w:t>Hello confined world</w:t></w:r></w:p></w:body></w:document>",
	})
	cmd := serverCmd(t, "SKILLS_DIR="+skills, "SKILLS_SCRIPTS_WRITE_ROOTS="+work, "SKILLS_STATE_DIR="+t.TempDir())
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "office-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	defer cs.Close()
	run := func(file string, args map[string]any) (stdout string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
			"skill_path": "office", "file": file, "args": args, "cwd": work}})
		if err != nil || res.IsError {
			t.Fatalf("run_script %s: %v %+v\n%s", file, err, res, stderr)
		}
		var out struct {
			ExitCode       int `json:"exit_code"`
			Stdout, Stderr string
		}
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			t.Fatal(err)
		}
		if out.ExitCode != 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", file, out.ExitCode, out.Stdout, out.Stderr)
		}
		return out.Stdout
	}

	if got := run("scripts/unpack.py", map[string]any{"input": "in.docx", "output": "unpacked"}); !strings.Contains(got, `"word/document.xml"`) {
		t.Errorf("unpack: %q", got)
	}
	if got := run("scripts/check.sh", map[string]any{"input": "unpacked"}); !strings.Contains(got, "ok word/document.xml") || !strings.Contains(got, "words 3") {
		t.Errorf("check: %q, want both parts found and 3 words", got)
	}
	if got := run("scripts/summary.js", map[string]any{"input": "unpacked"}); !strings.Contains(got, `"files":["[Content_Types].xml","word/document.xml"]`) {
		t.Errorf("summary: %q", got)
	}
	if got := run("scripts/pack.py", map[string]any{"input": "unpacked", "output": "out.docx"}); !strings.Contains(got, `"packed": "out.docx"`) {
		t.Errorf("pack: %q", got)
	}
	r, err := zip.OpenReader(filepath.Join(work, "out.docx"))
	if err != nil {
		t.Fatalf("the packed document: %v", err)
	}
	defer r.Close()
	if len(r.File) != 2 {
		t.Errorf("the packed document holds %d parts, want 2", len(r.File))
	}
}

func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, body := range files {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
