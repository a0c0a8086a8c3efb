package execrun

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// TestEscapedProcessDoesNotHangRun starts a process that leaves the group with
// setsid and keeps stdout open: Run must still return once the drain timeout
// passes, with the output written before.
func TestEscapedProcessDoesNotHangRun(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"bash", "setsid", "sleep"} {
		testenv.RequireTool(t, p)
	}
	dir := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := filepath.Join(dir, "s.sh")
	body := "setsid sleep 30 &\necho $! > \"$SKILL_ARG_PID\"\necho done\n"
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := New("bash")
	if err != nil {
		t.Fatal(err)
	}
	r.drain = time.Second // the copiers read "done" meanwhile, even on a loaded machine; the escaped sleep holds the pipe 30 s
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	res, err := r.Run(ctx, core.RunRequest{
		ScriptPath: script, File: "s.sh", SkillDir: dir, Dir: dir,
		Args: map[string]string{"pid": pidFile},
	})

	if data, readErr := os.ReadFile(pidFile); readErr == nil {
		if pid, convErr := strconv.Atoi(strings.TrimSpace(string(data))); convErr == nil && pid > 0 {
			if p, findErr := os.FindProcess(pid); findErr == nil {
				_ = p.Kill()
			}
		}
	}
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.ExitCode != 0 || res.Stdout != "done\n" {
		t.Errorf("got exit %d stdout %q, want exit 0 stdout %q", res.ExitCode, res.Stdout, "done\n")
	}
}
