package wasm_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

func TestMemoryLimit(t *testing.T) {
	r := newRunner(t, wasm.WithMemoryLimitPages(16*16), tempWritable)
	const note = "[skills-mcp] wasm module exceeded the memory limit (16 MiB)"

	over := run(t, r, probeSkill(t, "alloc", map[string]string{"mb": "64"}))

	if over.ExitCode == 0 {
		t.Errorf("allocating 64 MiB under a 16 MiB limit: exit code = 0, want non-zero (stdout %q)", over.Stdout)
	}
	if !strings.Contains(over.Stderr, "\n"+note) {
		t.Errorf("stderr = %q, want the line %q", tail(over.Stderr, 300), note)
	}

	// The engine is unharmed: the next run gets a fresh memory.
	under := run(t, r, probeSkill(t, "alloc", map[string]string{"mb": "1"}))

	if under.ExitCode != 0 || under.Stdout != "allocated 1 MiB\n" {
		t.Errorf("run after the failure: exit %d stdout %q stderr %q, want exit 0 and %q",
			under.ExitCode, under.Stdout, tail(under.Stderr, 300), "allocated 1 MiB\n")
	}
	if strings.Contains(under.Stderr, note) {
		t.Errorf("run after the failure: stderr holds the memory note, want none: %q", under.Stderr)
	}
}

func TestInfiniteLoopIsKilledAtTimeout(t *testing.T) {
	r := newRunner(t, tempWritable)
	req := probeSkill(t, "loop", nil)
	req.Timeout = time.Second

	res := run(t, r, req)

	if !res.TimedOut || res.ExitCode != core.TimeoutExitCode {
		t.Errorf("TimedOut %v exit code %d, want true and %d", res.TimedOut, res.ExitCode, core.TimeoutExitCode)
	}
	if res.Stdout != "" || res.Stderr != core.TimeoutMarker {
		t.Errorf("stdout %q stderr %q, want nothing and %q", res.Stdout, res.Stderr, core.TimeoutMarker)
	}
}

func TestExitCode(t *testing.T) {
	r := newRunner(t, tempWritable)
	for _, code := range []int{0, 1, 7, 255} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			res := run(t, r, probeSkill(t, "exit", map[string]string{"code": strconv.Itoa(code)}))

			if res.ExitCode != code {
				t.Errorf("exit code = %d, want %d (stderr %q)", res.ExitCode, code, res.Stderr)
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
