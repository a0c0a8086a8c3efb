package exec

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestEscapedProcessDoesNotHangRun starts a process that leaves the group with
// setsid and keeps stdout open: Run must still return once the drain timeout
// passes, with the output written before.
func TestEscapedProcessDoesNotHangRun(t *testing.T) {
	for _, p := range []string{"bash", "setsid", "sleep"} {
		if _, err := osexec.LookPath(p); err != nil {
			t.Skipf("%s not installed: %v", p, err)
		}
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
	r.drain = 100 * time.Millisecond
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
