package gitsync

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestOnlyGitsyncLinksGoGit keeps go-git where it belongs: of the module's
// packages (tests excluded), only this one and its helper executable
// cmd/skills-mcp-git may depend on it; skills-mcp and skillscmd sync through
// core/gitproc and link none of it (issue 19: the server's resident size
// follows what it links).
func TestOnlyGitsyncLinksGoGit(t *testing.T) {
	if goBinary == "" {
		t.Skip("no go tool")
	}
	cmd := exec.Command(goBinary, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "github.com/skills-mcp/skills-mcp/...")
	cmd.Env = buildEnv
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{"github.com/skills-mcp/skills-mcp/core/gitsync", "github.com/skills-mcp/skills-mcp/cmd/skills-mcp-git"}
	var got []string
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || slices.Contains(allowed, fields[0]) {
			continue
		}
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, "github.com/go-git/") {
				got = append(got, fields[0])
				break
			}
		}
	}
	if len(got) > 0 {
		t.Errorf("packages linking go-git outside core/gitsync and cmd/skills-mcp-git: %v, want none", got)
	}
}
