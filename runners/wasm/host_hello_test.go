package wasm_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

// The helper serves a server of its own build only: a first line with the
// Hello of another version or protocol, or a run with no handshake before
// it (a server older than the handshake), is answered with an error naming
// both builds, and the helper leaves (exit 2) without running anything.
func TestHostRefusesAServerOfAnotherBuild(t *testing.T) {
	t.Parallel()
	own := childproc.NewHello(wasmproc.Protocol)
	for _, tc := range []struct {
		name  string
		first wasmproc.Request
		want  string
	}{
		{"this build", wasmproc.Request{Hello: &own}, ""},
		{"another version", wasmproc.Request{Hello: &childproc.Hello{Protocol: wasmproc.Protocol, Version: "v0.0.0-other"}}, `refuses a server of "v0.0.0-other"`},
		{"another protocol", wasmproc.Request{Hello: &childproc.Hello{Protocol: wasmproc.Protocol + 1, Version: own.Version}}, "protocol " + strconv.Itoa(wasmproc.Protocol+1)},
		{"older than the handshake", wasmproc.Request{ScriptPath: "/nowhere/x.wasm", File: "x.wasm"}, "did not say its version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			line, err := json.Marshal(tc.first)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr strings.Builder
			code := wasm.Host(strings.NewReader(string(line)+"\n"), &stdout, &stderr)
			var resp wasmproc.Response
			if err := json.Unmarshal([]byte(stdout.String()), &resp); err != nil {
				t.Fatalf("answer %q: %v", stdout.String(), err)
			}
			if resp.Hello == nil || *resp.Hello != own {
				t.Errorf("answer's hello = %v, want %v", resp.Hello, own)
			}
			err = resp.Err()
			if tc.want == "" {
				if err != nil || code != 0 {
					t.Errorf("Host = %d, answer's error %v; want 0 and none", code, err)
				}
				return
			}
			if code != 2 {
				t.Errorf("Host = %d, want 2", code)
			}
			if !errors.Is(err, childproc.ErrMismatch) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), own.String()) {
				t.Errorf("answer's error = %v; want ErrMismatch naming %s and %s", err, tc.want, own)
			}
		})
	}
}
