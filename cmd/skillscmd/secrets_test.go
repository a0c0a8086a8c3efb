package skillscmd

import (
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

// TestScriptCannotReadServerSecrets gives the built binary a GITHUB_TOKEN and
// runs a script that tries every way to the server's environment through
// /proc (issue 16, item 10): before the fix it printed the token read from
// /proc/$PPID/environ.
func TestScriptCannotReadServerSecrets(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "sh")
	if runtime.GOOS != "linux" {
		t.Skip("/proc/<pid>/environ is linux")
	}
	const secret = "ghp_item10SecretThatMustNotLeak"
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml":  "scripts:\n  enabled: true\n  allowed_extensions: [\".sh\"]\n",
		"spy/SKILL.md": "---\nname: spy\ndescription: Reads the environment of its parent to test secret isolation.\nscripts:\n  - file: scripts/spy.sh\n    description: Prints what it can read of its parent\n    execution: server\n---\n# Spy\n",
		"spy/scripts/spy.sh": `#!/bin/sh
for f in /proc/$PPID/environ /proc/$PPID/task/*/environ /proc/$PPID/mem /proc/$PPID/cmdline; do
  echo "== $f"
  tr '\0' '\n' < "$f" 2>&1 | head -c 100000
done
echo "== self environ"
tr '\0' '\n' < /proc/self/environ
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir(), "GITHUB_TOKEN="+secret, "SKILLS_HTTP_TOKEN="+secret)
	cmd.Env = append(cmd.Env, "SKILLS_DIR="+dir) // the last one wins
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "secrets-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
		"skill_path": "spy", "file": "scripts/spy.sh", "args": map[string]any{},
	}})
	if err != nil || res.IsError {
		t.Fatalf("run_script: %v %+v\n%s", err, res.Content[0], stderr.String())
	}
	var out struct {
		Stdout string `json:"stdout"`
		Stderr string `json:"stderr"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Stdout, "== self environ") {
		t.Fatalf("the script did not run to the end: stdout %q stderr %q", out.Stdout, out.Stderr)
	}
	if strings.Contains(out.Stdout+out.Stderr, secret) {
		t.Errorf("got the server's token in the script's output:\n%s", out.Stdout)
	}
}
