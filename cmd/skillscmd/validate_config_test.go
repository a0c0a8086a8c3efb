package skillscmd

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/validate"
)

// A clean Agent Skill, so that a tree's only findings are the ones a test plants.
const cleanSkill = "---\nname: clean\ndescription: A clean skill used as a baseline.\n---\n# Clean\n"

func TestValidateConfigEveryProblemAtItsLine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"skills/clean/SKILL.md": cleanSkill,
		"config.yaml": `matching:
  min_score: 2
  max_results: many
scripts:
  enabled: maybe
  timeout_seconds: 0
  runners:
    .rb: [ruby]
extra: 1
`,
	})
	r := runValidateBin(t, root, nil)
	if r.code != exitFailed {
		t.Errorf("exit %d, want %d", r.code, exitFailed)
	}
	wantLines(t, r,
		`config.yaml:2: error: matching.min_score: must be between 0 and 1`,
		`config.yaml:3: error: matching.max_results: want a whole number, got the string "many"`,
		`config.yaml:5: error: scripts.enabled: want true or false, got the string "maybe"`,
		`config.yaml:6: error: scripts.timeout_seconds: must be at least 1`,
		`config.yaml:8: error: scripts.runners..rb: want a string, got a list`,
		`config.yaml:9: warning: extra: unknown key (ignored)`, // with the errors, not after they are fixed (issue 29)
	)
}

func TestValidateConfigWarningsAtTheirLines(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"skills/clean/SKILL.md": cleanSkill,
		"config.yaml":           "# settings\nrefresh:\n  enabled: yes\nmatching:\n  min_scor: 0.3\n",
	})
	r := runValidateBin(t, root, nil, "--json")
	if r.code != exitOK {
		t.Errorf("exit %d, want 0 (warnings only)\n%s", r.code, r.stderr)
	}
	got := decodeReport(t, r).Findings
	want := []validate.Finding{
		{File: "config.yaml", Line: 3, Severity: "warning", Message: `refresh.enabled: "yes" is a boolean only in YAML 1.1; write true`},
		{File: "config.yaml", Line: 5, Severity: "warning", Message: "matching.min_scor: unknown key (ignored)"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("validate.Finding %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
