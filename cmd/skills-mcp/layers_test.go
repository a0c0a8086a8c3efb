package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// TestPackagesKeepTheirLayer holds docs/ARCHITECTURE.md's "must not import"
// column: for each package (or family, a prefix ending in "/"), what it must
// not depend on, directly or through another package. One `go list` of the
// module answers for all.
func TestPackagesKeepTheirLayer(t *testing.T) {
	t.Parallel()
	goTool := testenv.RequireTool(t, "go")
	out, err := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"github.com/skills-mcp/skills-mcp/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/skills-mcp/skills-mcp/"
	const (
		sdk    = "github.com/modelcontextprotocol/go-sdk/"
		wazero = "github.com/tetratelabs/wazero"
		gogit  = "github.com/go-git/"
	)
	rules := []struct {
		pkg       string // relative to the module; a trailing "/" covers the family
		forbidden []string
	}{
		{"core", []string{mod, "github.com/", "golang.org/", "go.yaml.in/", "google.golang.org/", "go.opentelemetry.io/"}},
		{"internal/index", []string{mod + "runners/", mod + "plugins/", sdk}},
		{"internal/frontmatter", []string{mod + "internal/index", sdk}},
		{"internal/confine", []string{mod + "internal/index", mod + "internal/server", sdk}},
		{"internal/search", []string{mod + "internal/server", sdk}},
		{"internal/scripts", []string{mod + "internal/server", mod + "runners/", mod + "plugins/", sdk}},
		{"internal/server", []string{mod + "runners/", mod + "plugins/", wazero, gogit}},
		{"internal/watch", []string{mod + "internal/index", mod + "internal/server", sdk}},
		{"internal/events", []string{mod + "internal/server", mod + "plugins/", sdk}},
		{"internal/config", []string{mod + "internal/server", mod + "plugins/", sdk}},
		{"internal/gitsync", []string{mod + "internal/gitsync/engine", gogit}},
		{"internal/launch", []string{mod + "runners/", mod + "plugins/", sdk, wazero}},
		{"sandbox", []string{mod + "runners/", mod + "plugins/", sdk, wazero}},
		{"runners/", []string{mod + "internal/server", sdk}},
		{"plugins/", []string{mod + "internal/server"}},
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		if fields := strings.Fields(line); len(fields) > 0 {
			deps[strings.TrimPrefix(fields[0], mod)] = fields[1:]
		}
	}
	for _, r := range rules {
		matched := false
		for pkg, ds := range deps {
			if pkg != r.pkg && !(strings.HasSuffix(r.pkg, "/") && strings.HasPrefix(pkg, r.pkg)) {
				continue
			}
			matched = true
			for _, d := range ds {
				for _, f := range r.forbidden {
					if strings.HasPrefix(d, f) && strings.TrimPrefix(d, mod) != pkg && !strings.HasPrefix(strings.TrimPrefix(d, mod), pkg+"/") {
						t.Errorf("%s depends on %s, which its layer must not (%s)", pkg, d, f)
					}
				}
			}
		}
		if !matched {
			t.Errorf("no package %s in the module: the rule is stale", r.pkg)
		}
	}
}
