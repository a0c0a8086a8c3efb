package skillscmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// TestMakeRunWritesOnlyTheProtocolToStdout runs the README's first command as
// a host would launch it: `make run` with an initialize request on stdin.
// Everything on stdout must be a JSON-RPC message (make's own command lines
// and the builds' output belong on stderr), and the first one answers the
// request.
// Not parallel: make writes the example .wasm into the source tree, which
// other tests copy.
func TestMakeRunWritesOnlyTheProtocolToStdout(t *testing.T) {
	testenv.Long(t, "builds the binaries and the example .wasm with make")
	testenv.RequireTool(t, "make")
	cmd := exec.Command("make", "--no-print-directory", "run")
	cmd.Dir = "../.."
	// A make test above passes its flags and jobserver down; make run is
	// launched by a host without them.
	cmd.Env = withoutEnv(os.Environ(), "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"make-run-test","version":"1"}}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("make run: %v\nstderr:\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	for i, line := range lines {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Fatalf("stdout line %d is not a JSON-RPC message: %q", i+1, line)
		}
		if i == 0 && (string(msg.ID) != "1" || len(msg.Result) == 0) {
			t.Errorf("first stdout line answers %s, want the initialize result of id 1: %q", msg.ID, line)
		}
	}
}

// withoutEnv is env without the variables named.
func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
