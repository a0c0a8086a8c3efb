package wasm_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestOnlyWasmRunnerLinksWazero keeps the wazero engine where it belongs: of
// the module's packages (tests excluded), only this runner and the command
// that registers it may depend on wazero, so a build without WASM links none
// of it.
func TestOnlyWasmRunnerLinksWazero(t *testing.T) {
	out, err := exec.Command("go", "list",
		"-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"github.com/skills-mcp/skills-mcp/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{
		"github.com/skills-mcp/skills-mcp/cmd",
		"github.com/skills-mcp/skills-mcp/cmd/skills-mcp",
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
		t.Errorf("packages linking wazero outside runners/wasm and the command: %v, want none", got)
	}
}
