package skillscmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/eval"
)

// evalTree writes Agent Skills near neighbours and returns their directory.
func evalTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	skills := map[string]string{
		"pdf":       "Extract text and tables from PDF files, merge and split them.",
		"pdf-forms": "Fill in PDF forms and flatten them once the fields are set.",
		"docx":      "Create and edit Word documents with tracked changes.",
		"pptx":      "Build PowerPoint slide decks from an outline.",
	}
	for name, desc := range skills {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeQueries(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// evalOf runs skills-mcp eval --json with env and args and decodes the output.
func evalOf(t *testing.T, env map[string]string, args ...string) eval.Output {
	t.Helper()
	stdout, stderr, code := runCLI(t, env, append([]string{"eval", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("eval %v: exit %d: %s", args, code, stderr)
	}
	var out eval.Output
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	return out
}

func TestEval(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	q := writeQueries(t,
		`# routing tests`,
		`{"query": "fill in this PDF form and flatten it", "expect": ["pdf-forms"]}`,
		`{"query": "turn my outline into a slide deck", "expect": ["pptx"]}`,
		``,
		`{"query": "pdf", "expect": ["pdf"]}`,
		`{"query": "edit a word document", "expect": ["pdf"]}`,
		`{"query": "book me a flight to Lisbon", "expect": []}`,
		`{"query": "extract the tables of a pdf file", "expect": ["pdf-forms"]}`,
	)
	off := writeQueries(t, `{"query": "book me a flight to Lisbon", "expect": []}`, `{"query": "fill in this PDF form", "expect": []}`)
	out := evalOf(t, env, q, off)
	if out.Matcher != "auto" || out.Skills != 4 || out.ExactName != 1 || len(out.ExactNameMisses) != 0 || len(out.Files) != 2 {
		t.Fatalf("report %+v", out)
	}
	rep := out.Files[0]
	if rep.File != q || rep.Queries != 6 || rep.Answerable != 5 || rep.Top1 != 0.6 || rep.Top3 != 0.6 || rep.SearchTop3 != 0.8 ||
		rep.NoMatch != 0 || rep.Unanswerable != 1 || rep.RightlyNoMatch != 1 || rep.OffTopicNoMatch != 1 {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Misses) != 2 || rep.Misses[0].Line != 6 || rep.Misses[0].Answer[0].SkillPath != "docx" || rep.Misses[0].InSearchTop3 ||
		rep.Misses[1].Line != 8 || rep.Misses[1].Answer[0].SkillPath != "pdf" || rep.Misses[1].InTop3 || !rep.Misses[1].InSearchTop3 {
		t.Errorf("misses %+v, want line 6 (docx served, pdf not ranked) and line 8 (pdf served alone, pdf-forms ranked)", rep.Misses)
	}
	if o := out.Files[1]; o.Answerable != 0 || o.Unanswerable != 2 || o.RightlyNoMatch != 1 || o.OffTopicNoMatch != 0.5 ||
		len(o.Misses) != 1 || o.Misses[0].Query != "fill in this PDF form" {
		t.Errorf("requests without an answer: %+v, want one of two answered no_match and the other listed", o)
	}

	stdout, _, code := runCLI(t, env, "eval", "--min-top1", "0.8", q)
	for _, want := range []string{"60.0%", "got match docx", "FAIL: " + q + ": top-1 60.0% is under --min-top1 80.0%", "exact name (4 skills)"} {
		if code != exitFailed || !strings.Contains(stdout, want) {
			t.Errorf("--min-top1 0.8: exit %d, want 1 and %q in:\n%s", code, want, stdout)
		}
	}
	if _, _, code := runCLI(t, env, "eval", "--min-top1", "0.6", q); code != exitOK {
		t.Errorf("--min-top1 0.6: exit %d, want 0", code)
	}
}

func TestEvalBadInput(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	tests := []struct {
		name  string
		args  []string
		lines []string
		want  string
	}{
		{"not JSON", nil, []string{`{"query": "pdf", "expect": ["pdf"]}`, `query: pdf`}, "q.jsonl:2: invalid character"},
		{"unknown field", nil, []string{`{"query": "pdf", "expected": ["pdf"]}`}, `unknown field "expected"`},
		{"empty query", nil, []string{`{"query": " ", "expect": ["pdf"]}`}, "q.jsonl:1: query is empty"},
		{"no query", nil, []string{`# nothing`}, "holds no query"},
		{"unknown path", nil, []string{`{"query": "pdf", "expect": ["pdfs"]}`}, `q.jsonl:1: no skill has the path "pdfs"`},
		{"rate out of range", []string{"--min-top1", "90"}, []string{`{"query": "pdf", "expect": ["pdf"]}`}, "--min-top1 must be between 0 and 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"eval"}, tt.args...), writeQueries(t, tt.lines...))
			_, stderr, code := runCLI(t, env, args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
	if _, stderr, code := runCLI(t, env, "eval", filepath.Join(t.TempDir(), "missing.jsonl")); code != exitUsage || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
}

func TestEvalInit(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	q := filepath.Join(t.TempDir(), "routing.jsonl")
	stdout, stderr, code := runCLI(t, env, "eval", "init", q)
	if code != exitOK || !strings.Contains(stdout, "4 queries") {
		t.Fatalf("init: exit %d, %s%s", code, stdout, stderr)
	}
	if _, stderr, code := runCLI(t, env, "eval", "init", q); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("second init: exit %d, %q; want 2 naming the existing file", code, stderr)
	}
	if _, stderr, code := runCLI(t, env, "eval", "--min-top1", "1", q); code != exitOK {
		t.Errorf("eval of the starter file: exit %d\n%s", code, stderr)
	}
	if out := evalOf(t, env, q); out.Files[0].Top1 != 1 || out.ExactName != 1 {
		t.Errorf("eval of the starter file: %+v", out)
	}
}

// TestEvalSameName: a miss that picks another collection's skill of the
// expected one's folder name is counted apart, and asking for a name that
// two collections hold reaches both.
func TestEvalSameName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for path, desc := range map[string]string{
		"team-a/pdf": "Extract text and tables from PDF files, merge and split them.",
		"team-b/pdf": "Extract text from PDF files.",
		"team-b/csv": "Clean CSV files.",
	} {
		if err := os.MkdirAll(filepath.Join(dir, path), 0o755); err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		body := "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, path, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"SKILLS_DIR": dir}
	q := writeQueries(t, `{"query": "extract the tables of a pdf file", "expect": ["team-b/pdf"]}`)
	out := evalOf(t, env, q)
	rep := out.Files[0]
	if rep.SameNameMisses != 1 || len(rep.Misses) != 1 || !rep.Misses[0].SameName || !rep.Misses[0].InTop3 || rep.Misses[0].Outcome != "ambiguous" {
		t.Errorf("report %+v, want one same-name miss, ambiguous with the expected skill listed", rep)
	}
	if out.Skills != 3 || out.ExactName != 1 {
		t.Errorf("exact names: %d skills, %v reached (%+v); want both pdf skills reached by \"pdf\"", out.Skills, out.ExactName, out.ExactNameMisses)
	}
	stdout, _, _ := runCLI(t, env, "eval", q)
	if !strings.Contains(stdout, "same name elsewhere came first") || !strings.Contains(stdout, "1 of the top-1 misses") {
		t.Errorf("text report:\n%s", stdout)
	}
}

// A trigger-eval file is read alone: beside a queries file it is refused,
// naming it, rather than failing as a malformed queries file.
func TestEvalTriggerFileAlone(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	q := writeQueries(t, `{"query": "pdf", "expect": ["pdf"]}`)
	trigger := filepath.Join(t.TempDir(), "trigger-evals.json")
	if err := os.WriteFile(trigger, []byte(`[{"query": "merge PDFs", "should_trigger": true, "skill": "pdf"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, env, "eval", q, trigger)
	if code != exitUsage || !strings.Contains(stderr, trigger+" is a trigger-eval file: give it alone") {
		t.Errorf("exit %d, stderr %q; want 2 naming the trigger-eval file", code, stderr)
	}
}
