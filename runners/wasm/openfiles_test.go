package wasm_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/runners/wasm/internal/engine"
)

// TestOpenFilesAreCappedPerRun runs a guest that opens a file 5,000 times
// without closing it (issue 16, item 8: it took the server from 9 to 4,950
// descriptors). The run holds at most engine.MaxOpenFiles; the host gets every
// descriptor back once the run ends, and the next run opens as many again.
func TestOpenFilesAreCappedPerRun(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("counting descriptors needs /proc/self/fd")
	}
	r := newRunner(t)
	countFDs := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	for round := range 2 {
		req := probeSkill(t, "openmany", map[string]string{"n": "5000", "path": "data.txt"})
		write(t, filepath.Join(req.SkillDir, "data.txt"), "x")
		before := countFDs()
		res := run(t, r, req)
		opened, ok := strings.CutPrefix(strings.TrimSpace(res.Stdout[strings.LastIndex(strings.TrimSpace(res.Stdout), "\n")+1:]), "opened ")
		n, err := strconv.Atoi(opened)
		if !ok || err != nil {
			t.Fatalf("round %d: got stdout %q stderr %q, want \"opened N\"", round, res.Stdout, res.Stderr)
		}
		t.Logf("round %d: %d files open at once", round, n)
		if n >= engine.MaxOpenFiles || n < engine.MaxOpenFiles/2 {
			t.Errorf("round %d: got %d files open at once, want under the cap of %d (and most of it)", round, n, engine.MaxOpenFiles)
		}
		if after := countFDs(); after > before+8 {
			t.Errorf("round %d: got %d host descriptors after the run, %d before: the run's files were not given back", round, after, before)
		}
	}
}
