package skillscmd

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestRunScriptWasmEndToEnd runs the example .wasm script through the real
// binary and an MCP client: arguments arrive as SKILL_ARG_*, output comes back
// with the run_script result shape of spec 000 §8.4.
func TestRunScriptWasmEndToEnd(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir())
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wasm-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	tests := []struct {
		title, stdout, stderr string
		exit                  int
	}{
		{"Order Items by Customer", "order-items-by-customer\n", "", 0},
		{"   ", "", "Error: title is empty\n", 2},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
			"skill_path": "api/rest", "file": "scripts/slugify.wasm", "args": map[string]any{"title": tt.title},
		}})
		if err != nil || res.IsError {
			t.Fatalf("run_script: %v %+v\n%s", err, res, stderr.String())
		}
		var out struct {
			Success  bool   `json:"success"`
			ExitCode int    `json:"exit_code"`
			Stdout   string `json:"stdout"`
			Stderr   string `json:"stderr"`
			Script   string `json:"script"`
		}
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			t.Fatal(err)
		}
		if out.ExitCode != tt.exit || out.Success != (tt.exit == 0) || out.Stdout != tt.stdout || out.Stderr != tt.stderr || out.Script != "scripts/slugify.wasm" {
			t.Errorf("title %q: got %+v", tt.title, out)
		}
	}
}
