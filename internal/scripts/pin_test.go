package scripts_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestScriptCheckedBeforeTheRunner: Prepare opens the script confined and
// Run hands it over only while its path still leads to that file (issue 16,
// item 1, in one place since issue 27): a scripts folder swapped for a
// symlink to an outside tree after Prepare is refused with
// core.ErrPathTraversal and nothing runs.
func TestScriptCheckedBeforeTheRunner(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "bash")
	marker := filepath.Join(t.TempDir(), "ran")
	skills := writeTree(t, map[string]string{
		"deploy.md":             "---\ndescription: Deploy\nkeywords: [deploy]\nscripts:\n  - file: scripts/run.sh\n    execution: server\n---\nDeploy\n",
		"deploy/scripts/run.sh": "echo inside\n",
	})
	outside := writeTree(t, map[string]string{"run.sh": "touch " + marker + "\necho outside\n"})
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
	runs := scripts.NewRuns(1, nil, nil)
	prepare := func() scripts.Prepared {
		t.Helper()
		p, err := scripts.Prepare(snap, config.Default().Scripts, runners, nil, scripts.Args{SkillPath: "deploy", File: "scripts/run.sh"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if res, err := runs.Run(t.Context(), prepare()); err != nil || res.Stdout != "inside\n" {
		t.Fatalf("the confined script: %+v, %v; want it to print inside", res, err)
	}

	p := prepare()
	folder := filepath.Join(skills, "deploy", "scripts")
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, folder); err != nil {
		t.Fatal(err)
	}
	if _, err := runs.Run(t.Context(), p); !errors.Is(err, core.ErrPathTraversal) {
		t.Errorf("Run after the swap = %v, want ErrPathTraversal", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the outside script ran")
	}
	if _, err := scripts.Prepare(snap, config.Default().Scripts, runners, nil, scripts.Args{SkillPath: "deploy", File: "scripts/run.sh"}); !errors.Is(err, core.ErrPathTraversal) {
		t.Errorf("Prepare after the swap = %v, want ErrPathTraversal", err)
	}
}
