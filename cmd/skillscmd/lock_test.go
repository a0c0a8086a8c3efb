package skillscmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/lockfile"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// lockTree is a small tree: tree skills and an Agent Skill with a file.
var lockTree = map[string]string{
	"_root.md":           "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n",
	"go.md":              "---\ndescription: Go services\nkeywords: [golang]\n---\nUse contexts.\n",
	"rust.md":            "---\ndescription: Rust crates\nkeywords: [rust]\n---\nUse clippy.\n",
	"pdf/SKILL.md":       "---\nname: pdf\ndescription: Fill PDF forms\n---\nUse the form tool.\n",
	"pdf/references.txt": "forms\n",
}

// runLocal runs the command in this process with env.
func runLocal(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = New(nil).Run(context.Background(), args, io.NopCloser(strings.NewReader("")), &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

// skills-mcp lock writes the digests skills/list publishes; validate --lock
// passes on the locked tree and names each changed skill after edits; serve
// --frozen serves the skills that match and not the changed ones, and says
// why in the log; a lock file that does not parse stops the start.
func TestLockFrozenValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, lockTree)
	lockPath := filepath.Join(t.TempDir(), "skills.lock")
	env := map[string]string{"HOME": t.TempDir()}

	code, _, stderr := runLocal(t, env, "lock", "--skills-dir", dir, "--out", lockPath)
	if code != exitOK {
		t.Fatalf("lock: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lockfile.Parse(data)
	if err != nil || len(l.Skills) != 4 {
		t.Fatalf("the lock: %v, %d skills, want 4\n%s", err, len(l.Skills), data)
	}
	if code, out, stderr := runLocal(t, env, "validate", "--lock", lockPath, dir); code != exitOK {
		t.Fatalf("validate --lock on the locked tree: exit %d\n%s%s", code, out, stderr)
	}

	writeFiles(t, dir, map[string]string{
		"rust.md":            "---\ndescription: Rust crates\nkeywords: [rust]\n---\nUse unsafe freely.\n",
		"pdf/references.txt": "forms, changed\n",
	})
	code, out, _ := runLocal(t, env, "validate", "--lock", lockPath, dir)
	if code != exitFailed || !strings.Contains(out, "skill rust does not match the lock") || !strings.Contains(out, "skill pdf does not match the lock: skill://pdf/references.txt changed") ||
		strings.Contains(out, "skill go ") {
		t.Errorf("validate --lock after edits: exit %d\n%s\nwant 1, naming rust and pdf and not go", code, out)
	}

	t.Run("serve --frozen", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := serverCmd(t, "SKILLS_DIR="+dir, "SKILLS_LOCK="+lockPath)
		cmd.Args = append(cmd.Args, "serve", "--no-watch")
		stderr := &testlog.Buffer{}
		cmd.Stderr = stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "lock-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		defer cs.Close()
		for path, served := range map[string]bool{"go": true, "rust": false, "pdf": false} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": path}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError == served {
				t.Errorf("get_skill %s: isError %v, want served %v: %s", path, res.IsError, served, res.Content[0].(*mcp.TextContent).Text)
			}
			if got := res.Meta[server.MetaProvenance]; served && (got == nil || !strings.Contains(jsonOf(t, got), lockfile.Digest(data))) {
				t.Errorf("get_skill %s: _meta provenance = %v, want the lock's digest %s", path, got, lockfile.Digest(data))
			}
		}
		log := stderr.String()
		if !strings.Contains(log, "not serving a skill") || !strings.Contains(log, "skill=rust") || !strings.Contains(log, "changed") {
			t.Errorf("the log does not name the refused skills and why:\n%s", log)
		}
	})

	bad := filepath.Join(t.TempDir(), "bad.lock")
	if err := os.WriteFile(bad, []byte("{\"version\": 7}"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runLocal(t, map[string]string{"SKILLS_DIR": dir, "SKILLS_LOCK": bad}, "serve")
	if code != exitUsage || !strings.Contains(stderr, bad) || !strings.Contains(stderr, "version 7") {
		t.Errorf("serve with a lock that does not parse: exit %d, %s; want 2 naming the file and the problem", code, stderr)
	}
}

// writeFiles writes files (slash path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonOf is v as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
