package skillscmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStarterPlusAgentSkill: `skills-mcp init`'s starter (skills that declare
// keywords) plus an Agent Skill without keywords is a mixed tree. Under the
// default matcher every skill is reached by its exact name (the Agent Skill
// scored under min_score by §5 alone) and a task finds the Agent Skill, while
// the starter's own routing is unchanged.
func TestStarterPlusAgentSkill(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "content")
	if _, stderr, code := runCLI(t, nil, "init", dir); code != exitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	skill := filepath.Join(dir, "skills", "pdf-tools")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	// A description as Agent Skills write them (20-60 words): §5 would make
	// each of its words a keyword, so that no context reaches min_score.
	body := "---\nname: pdf-tools\ndescription: \"Comprehensive toolkit for PDF documents: extract text and tables, merge and " +
		"split files, rotate pages, add watermarks, fill in forms and flatten them, and make scanned pages searchable. " +
		"Use whenever the user mentions a .pdf file or asks to produce one.\"\n---\n# PDF tools\n"
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SKILLS_DIR": filepath.Join(dir, "skills")}
	names := filepath.Join(t.TempDir(), "names.jsonl")
	if _, stderr, code := runCLI(t, env, "eval", "init", names); code != exitOK {
		t.Fatalf("eval init: exit %d: %s", code, stderr)
	}
	tasks := writeQueries(t,
		`{"query": "merge these two PDF files", "expect": ["pdf-tools"]}`,
		`{"query": "code review checklist", "expect": ["guides/code-review"]}`,
	)
	out := evalOf(t, env, "--min-top1", "1", names, tasks)
	if out.Skills != 2 || out.ExactName != 1 || out.Files[0].Top1 != 1 || out.Files[1].Top1 != 1 {
		t.Errorf("eval: %+v, want both names and both tasks routed", out)
	}
	stdout, _, code := runCLI(t, env, "search", "pdf-tools")
	if code != exitOK || !strings.Contains(stdout, "match: pdf-tools") {
		t.Errorf("search pdf-tools: exit %d\n%s", code, stdout)
	}
}
