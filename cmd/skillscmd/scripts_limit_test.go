package skillscmd

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/internal/wasmtest"
)

// TestWasmHelpersAreBoundedByTheRunLimit runs six .wasm scripts at once
// through the built binary with SKILLS_SCRIPTS_MAX_CONCURRENT=2 and counts
// the skills-mcp-wasm helpers the server starts: at most two at any time,
// and at most two kept warm afterwards (issue 26, item 7: 32 concurrent runs
// started 32 helpers, 2.4 GB, kept 30 s). Every run still succeeds: the
// others wait for a slot within their timeout.
func TestWasmHelpersAreBoundedByTheRunLimit(t *testing.T) {
	t.Parallel()
	const limit, calls = 2, 6
	if _, ok := wasmtest.Children(os.Getpid(), wasmproc.HelperName); !ok {
		t.Skip("no /proc to count processes with")
	}
	skills := t.TempDir()
	files := map[string][]byte{
		"nap/SKILL.md": []byte("---\nname: nap\ndescription: Sleeps a second in the WASM sandbox.\nscripts:\n" +
			"  - file: scripts/nap.wasm\n    execution: server\n---\nNap\n"),
		// Long enough that six runs at once, unbounded, overlap for sure.
		"nap/scripts/nap.wasm": wasmtest.SleepModule(time.Second),
	}
	for name, data := range files {
		p := filepath.Join(skills, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(binPath)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_DIR=" + skills,
		"SKILLS_STATE_DIR=" + t.TempDir(), "SKILLS_SCRIPTS_MAX_CONCURRENT=2"}
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "limit-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	defer cs.Close()
	helpers := func() int { n, _ := wasmtest.Children(cmd.Process.Pid, wasmproc.HelperName); return n }

	var wg sync.WaitGroup
	failures := make(chan string, calls)
	for range calls {
		wg.Go(func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
				"skill_path": "nap", "file": "scripts/nap.wasm", "args": map[string]any{}}})
			var out struct{ Success bool }
			switch {
			case err != nil:
				failures <- err.Error()
			case res.IsError || json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out) != nil || !out.Success:
				failures <- res.Content[0].(*mcp.TextContent).Text
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	most := 0
	for sampling := true; sampling; {
		select {
		case <-done:
			sampling = false
		case <-time.After(20 * time.Millisecond):
		}
		most = max(most, helpers())
	}
	close(failures)
	for f := range failures {
		t.Errorf("run_script: %s", f)
	}
	if most < 1 || most > limit {
		t.Errorf("at most %d helpers ran at once, want 1 to %d\n%s", most, limit, stderr)
	}
	if n := helpers(); n > limit {
		t.Errorf("%d helpers kept after the runs, want at most %d", n, limit)
	}
}
