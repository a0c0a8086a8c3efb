package skillscmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/testnet"
)

// shutdownSkills writes a skills directory with config (config.yaml), a skill
// to serve and one whose script ignores SIGTERM.
func shutdownSkills(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml":   config,
		"docs/SKILL.md": "---\nname: docs\ndescription: Writing documentation for the project, with examples.\n---\n# Docs\n",
		"slow/SKILL.md": "---\nname: slow\ndescription: A script that ignores SIGTERM.\nscripts:\n" +
			"  - file: scripts/hang.sh\n    description: Hangs\n    execution: server\n    args:\n      - name: dir\n        description: where to write\n---\n# Slow\n",
		"slow/scripts/hang.sh": "trap 'echo term >> \"$SKILL_ARG_DIR/term\"' TERM\necho $$ > \"$SKILL_ARG_DIR/pid.tmp\"\n" +
			"mv \"$SKILL_ARG_DIR/pid.tmp\" \"$SKILL_ARG_DIR/pid\"\nfor i in $(seq 600); do sleep 0.1; done\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestShutdownWithinTheExitBudget is issue 26, item 6: SIGTERM with a
// collector that never answers (a TCP listener that accepts and stays
// silent) behind OTEL_EXPORTER_OTLP_ENDPOINT. Before, the telemetry flush (5
// s) ran first, the watchdog ended the process at 4.5 s with exit code 1, and
// none of the 5 events acknowledged by get_skill was delivered or buffered;
// a running script that ignored SIGTERM got no signal and outlived the
// server. Now analytics goes first (the events reach the buffer, then the
// endpoint if it answers), telemetry gets what remains of the budget, the
// script gets SIGTERM then SIGKILL, and the exit code is 0.
func TestShutdownWithinTheExitBudget(t *testing.T) {
	t.Parallel()
	collector := strings.TrimSuffix(testnet.SilentRemote(t), "/skills.git")
	endpoint := newEventEndpoint(t, 0)
	tests := []struct {
		name   string
		config string
		script bool // a script ignoring SIGTERM runs when the signal comes
		// delivered is how many events the endpoint must have, else the
		// buffer must hold them.
		delivered bool
	}{
		{"analytics to the silent collector (otlp sink)", "analytics:\n  enabled: true\n  sink: otlp\n", false, false},
		{"analytics to an endpoint that answers", fmt.Sprintf("analytics:\n  enabled: true\n  endpoint: %q\n", endpoint.srv.URL), false, true},
		{"a script ignoring SIGTERM is running", "analytics:\n  enabled: true\n  sink: otlp\n", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			state := t.TempDir()
			skills := shutdownSkills(t, tt.config)
			// The script writes where it runs: a write root (it is confined).
			scriptDir := t.TempDir()
			p := startPiped(t, "SKILLS_DIR="+skills, "SKILLS_STATE_DIR="+state, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector, "USER=budget",
				"SKILLS_SCRIPTS_WRITE_ROOTS="+scriptDir)
			const calls = 5
			for i := range calls {
				p.call(t, 10+i, "get_skill", map[string]any{"context": fmt.Sprintf("writing documentation %d", i)})
				if msg := p.await(t, 10+i); msg["error"] != nil {
					t.Fatalf("get_skill: %v", msg["error"])
				}
			}
			if tt.script {
				p.call(t, 99, "run_script", map[string]any{"skill_path": "slow", "file": "scripts/hang.sh", "args": map[string]any{"dir": scriptDir}, "cwd": scriptDir})
				if !waitFor(60*time.Second, func() bool { _, err := os.Stat(filepath.Join(scriptDir, "pid")); return err == nil }) {
					t.Fatalf("the script did not start; stderr:\n%s", p.stderr.String())
				}
			}

			code, took := p.stop(t)

			if code != 0 {
				t.Errorf("exit code %d, want 0; stderr:\n%s", code, p.stderr.String())
			}
			// The product's guarantee is 5 s, and exit code 0 already says
			// the watchdog (4.5 s) did not have to end it. This bound only
			// catches an exit that waits on the collector's 10 s export
			// timeout, with 5 s of room for a loaded machine.
			if took > 10*time.Second {
				t.Errorf("exit took %v, want well under 10 s", took)
			}
			got := 0
			if tt.delivered {
				// other subtests share the endpoint: count this process's events
				endpoint.mu.Lock()
				for _, req := range endpoint.requests {
					for _, ev := range req {
						if ctx, _ := ev["data"].(map[string]any)["context"].(string); strings.HasPrefix(ctx, "writing documentation") {
							got++
						}
					}
				}
				endpoint.mu.Unlock()
			} else {
				evs, err := eventbuf.New(filepath.Join(state, "analytics-buffer.jsonl")).ReadAll(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got = len(evs)
			}
			if got != calls {
				t.Errorf("%d of %d acknowledged events delivered or buffered (delivered: %v); stderr:\n%s", got, calls, tt.delivered, p.stderr.String())
			}
			if tt.script {
				if _, err := os.Stat(filepath.Join(scriptDir, "term")); err != nil {
					t.Errorf("the script got no SIGTERM: %v", err)
				}
				pidText, _ := os.ReadFile(filepath.Join(scriptDir, "pid"))
				pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
				if pid > 0 && !waitFor(10*time.Second, func() bool { return deadOrOthersZombie(pid, p.cmd.Process.Pid) }) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("the script (pid %d) outlived the server", pid)
				}
			}
		})
	}
}
