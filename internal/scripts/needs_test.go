package scripts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestScriptNeedingNetworkIsRefusedWithoutIt is issue 28: a declared script
// may say `needs: [network]`; where the operator runs scripts confined
// without network (the default), the run is refused before it starts, with
// an error naming SKILLS_SCRIPTS_NETWORK. Where scripts get the network
// (allowed, or unconfined), it runs; a script that needs nothing runs
// everywhere.
func TestScriptNeedingNetworkIsRefusedWithoutIt(t *testing.T) {
	t.Parallel()
	skills := writeTree(t, map[string]string{
		"fetch/SKILL.md": "---\nname: fetch\ndescription: Fetches a page.\nscripts:\n" +
			"  - file: scripts/get.sh\n    description: Gets it\n    execution: server\n    needs: [network]\n" +
			"  - file: scripts/local.sh\n    description: Stays home\n    execution: server\n---\n# Fetch\n",
		"fetch/scripts/get.sh":   "echo fetched\n",
		"fetch/scripts/local.sh": "echo local\n",
	})
	idx := index.New(index.Options{Roots: []index.Root{{Dir: skills, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	snap, err := idx.Rebuild(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	r, err := exec.New("bash")
	if err != nil {
		t.Fatal(err)
	}
	runners := core.NewRegistry[core.Runner]("runner")
	runners.Register(".sh", r)
	for _, tc := range []struct {
		name, sandbox, network, file string
		refused                      bool
	}{
		{"confined, network denied (the default)", "confined", "deny", "scripts/get.sh", true},
		{"confined, network allowed", "confined", "allow", "scripts/get.sh", false},
		{"unconfined", "none", "allow", "scripts/get.sh", false},
		{"needing nothing", "confined", "deny", "scripts/local.sh", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default().Scripts
			cfg.Sandbox, cfg.Network = tc.sandbox, tc.network
			p, err := scripts.Prepare(snap, cfg, runners, nil, scripts.Args{SkillPath: "fetch", File: tc.file, Args: map[string]string{}})
			if !tc.refused {
				if err != nil {
					t.Fatalf("Prepare: %v", err)
				}
				_ = p.Close()
				return
			}
			if !errors.Is(err, core.ErrNeedNotGranted) || !strings.Contains(err.Error(), "SKILLS_SCRIPTS_NETWORK") {
				t.Errorf("Prepare = %v; want an error wrapping ErrNeedNotGranted naming SKILLS_SCRIPTS_NETWORK", err)
			}
		})
	}
}
