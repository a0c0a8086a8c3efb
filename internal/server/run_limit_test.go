package server_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/internal/testproc"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestScriptRunsAreBounded: with scripts.max_concurrent 2, four run_script
// calls at once run two scripts at a time; the others wait for a slot and
// run when one ends (issue 26, item 7: 48 exec runs ran at once).
func TestScriptRunsAreBounded(t *testing.T) {
	t.Parallel()
	const limit, calls = 2, 4
	dir := t.TempDir()
	logs := &testlog.Buffer{}
	h := start(t, writeTree(t, testproc.HeldTree()), func(o *server.Options) {
		r, err := exec.New("bash", exec.WithGrace(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		o.Runners = core.NewRegistry[core.Runner]("runner")
		o.Runners.Register(".sh", r)
		o.Config.Scripts.MaxConcurrent = limit
		o.Logger = hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Debug})
	})
	type answer struct {
		id   int
		text string
		err  error
	}
	answers := make(chan answer, calls)
	for i := range calls {
		go func() {
			res, err := h.session.CallTool(t.Context(), &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
				"skill_path": "held", "file": "scripts/held.sh", "args": map[string]any{"dir": dir, "id": strconv.Itoa(i)}}})
			a := answer{id: i, err: err}
			if err == nil {
				a.text = res.Content[0].(*mcp.TextContent).Text
				if res.IsError {
					a.err = errors.New(a.text)
				}
			}
			answers <- a
		}()
	}
	// Two run and two wait: until then, more than two running is the bug.
	testproc.Poll(t, "two runs waiting for a slot", func() bool {
		if n := len(testproc.Running(t, dir)); n > limit {
			t.Fatalf("%d scripts ran at once, want at most %d", n, limit)
		}
		return strings.Count(logs.String(), "script run waits for a slot") == calls-limit
	})
	released := map[string]bool{}
	for done := 0; done < calls; {
		select {
		case a := <-answers:
			if a.err != nil {
				t.Fatalf("run %d: %v", a.id, a.err)
			}
			var out struct {
				Success bool
				Stdout  string
			}
			if err := json.Unmarshal([]byte(a.text), &out); err != nil || !out.Success || out.Stdout != fmt.Sprintf("done %d\n", a.id) {
				t.Errorf("run %d: %s", a.id, a.text)
			}
			done++
			continue
		default:
		}
		ids := testproc.Running(t, dir)
		if len(ids) > limit {
			t.Fatalf("%d scripts ran at once, want at most %d", len(ids), limit)
		}
		for _, id := range ids {
			if !released[id] {
				released[id] = true
				testproc.Release(t, dir, id)
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := range calls {
		seen, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seen.%d", i)))
		if n, convErr := strconv.Atoi(strings.TrimSpace(string(seen))); err != nil || convErr != nil || n < 1 || n > limit {
			t.Errorf("run %d saw %q runs at once (%v), want 1 to %d", i, seen, err, limit)
		}
	}
}
