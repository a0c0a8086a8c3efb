package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// TestHeavyLibrariesStayInTheirHelpers keeps go-git and wazero where they
// belong: of the module's packages (tests excluded), only the package using
// each and the helper executable hosting it may depend on it; skills-mcp and
// skillscmd link neither (issue 19: the server's resident size follows what it
// links). One `go list` of the module answers for both.
func TestHeavyLibrariesStayInTheirHelpers(t *testing.T) {
	t.Parallel()
	goTool := testenv.RequireTool(t, "go")
	out, err := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"github.com/skills-mcp/skills-mcp/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/skills-mcp/skills-mcp/"
	for _, lib := range []struct {
		name, prefix string
		allowed      []string
	}{
		{"go-git", "github.com/go-git/", []string{mod + "internal/gitsync/engine", mod + "cmd/skills-mcp-git"}},
		{"wazero", "github.com/tetratelabs/wazero", []string{mod + "runners/wasm", mod + "runners/wasm/internal/engine", mod + "cmd/skills-mcp-wasm"}},
	} {
		var got []string
		for line := range strings.Lines(string(out)) {
			fields := strings.Fields(line)
			if len(fields) == 0 || slices.Contains(lib.allowed, fields[0]) {
				continue
			}
			if slices.ContainsFunc(fields[1:], func(dep string) bool { return strings.HasPrefix(dep, lib.prefix) }) {
				got = append(got, fields[0])
			}
		}
		if len(got) > 0 {
			t.Errorf("packages linking %s outside %v: %v, want none", lib.name, lib.allowed, got)
		}
	}
}
