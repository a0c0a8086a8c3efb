package wasm_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestOnlyWasmRunnerLinksWazero keeps the wazero engine where it belongs: of
// the module's packages (tests excluded), only this runner and its helper
// executable cmd/skills-mcp-wasm may depend on wazero; skills-mcp and
// skillscmd link none of it (issue 19: the server's resident size follows
// what it links).
func TestOnlyWasmRunnerLinksWazero(t *testing.T) {
	out, err := exec.Command("go", "list",
		"-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"github.com/skills-mcp/skills-mcp/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{
		"github.com/skills-mcp/skills-mcp/cmd/skills-mcp-wasm",
		"github.com/skills-mcp/skills-mcp/runners/wasm",
	}
	var got []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || slices.Contains(allowed, fields[0]) {
			continue
		}
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, "github.com/tetratelabs/wazero") {
				got = append(got, fields[0])
				break
			}
		}
	}
	if len(got) > 0 {
		t.Errorf("packages linking wazero outside runners/wasm and cmd/skills-mcp-wasm: %v, want none", got)
	}
}
