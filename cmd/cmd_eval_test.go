package skillscmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestEval(t *testing.T) {
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	q := writeQueries(t,
		`# routing tests`,
		`{"query": "fill in this PDF form and flatten it", "expect": ["pdf-forms"]}`,
		`{"query": "turn my outline into a slide deck", "expect": ["pptx"]}`,
		``,
		`{"query": "pdf", "expect": ["pdf"]}`,
		`{"query": "edit a word document", "expect": ["pdf"]}`,
		`{"query": "book me a flight to Lisbon", "expect": []}`,
	)
	stdout, stderr, code := runCLI(t, env, "eval", "--json", q)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Queries != 5 || rep.Answerable != 4 || rep.Top1 != 0.75 || rep.Top3 != 0.75 || rep.NoMatch != 0 ||
		rep.Unanswerable != 1 || rep.RightlyNoMatch != 1 || rep.Matcher != "auto" {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Misses) != 1 || rep.Misses[0].Line != 6 || rep.Misses[0].Picked[0].SkillPath != "docx" || rep.Misses[0].InTop3 {
		t.Errorf("misses %+v, want the word document query of line 6, docx picked", rep.Misses)
	}

	stdout, _, code = runCLI(t, env, "eval", "--min-top1", "0.8", q)
	if code != exitFailed || !strings.Contains(stdout, "top-1      75.0%") || !strings.Contains(stdout, "picked docx") ||
		!strings.Contains(stdout, "FAIL: top-1 75.0% is under --min-top1 80.0%") {
		t.Errorf("--min-top1 0.8: exit %d, output:\n%s", code, stdout)
	}
	if _, _, code := runCLI(t, env, "eval", "--min-top1", "0.75", q); code != exitOK {
		t.Errorf("--min-top1 0.75: exit %d, want 0", code)
	}
}

func TestEvalBadInput(t *testing.T) {
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
	env := map[string]string{"SKILLS_DIR": evalTree(t)}
	q := filepath.Join(t.TempDir(), "routing.jsonl")
	stdout, stderr, code := runCLI(t, env, "eval", "init", q)
	if code != exitOK || !strings.Contains(stdout, "4 queries") {
		t.Fatalf("init: exit %d, %s%s", code, stdout, stderr)
	}
	if _, stderr, code := runCLI(t, env, "eval", "init", q); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("second init: exit %d, %q; want 2 naming the existing file", code, stderr)
	}
	stdout, stderr, code = runCLI(t, env, "eval", "--min-top1", "1", q)
	if code != exitOK || !strings.Contains(stdout, "top-1     100.0%") {
		t.Errorf("eval of the starter file: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestEvalSameName: a miss that picks another collection's skill of the
// expected one's folder name is counted apart.
func TestEvalSameName(t *testing.T) {
	dir := t.TempDir()
	for path, desc := range map[string]string{
		"team-a/pdf": "Extract text and tables from PDF files, merge and split them.",
		"team-b/pdf": "Extract text from PDF files.",
		"team-b/csv": "Clean CSV files.",
	} {
		if err := os.MkdirAll(filepath.Join(dir, path), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "---\nname: pdf\ndescription: " + desc + "\n---\n# PDF\n"
		if err := os.WriteFile(filepath.Join(dir, path, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := writeQueries(t, `{"query": "extract the tables of a pdf file", "expect": ["team-b/pdf"]}`)
	stdout, stderr, code := runCLI(t, map[string]string{"SKILLS_DIR": dir}, "eval", "--json", q)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.SameNameMisses != 1 || len(rep.Misses) != 1 || !rep.Misses[0].SameName || !rep.Misses[0].InTop3 || rep.Misses[0].Outcome != "ambiguous" {
		t.Errorf("report %+v, want one same-name miss, ambiguous with the expected skill listed", rep)
	}
	stdout, _, _ = runCLI(t, map[string]string{"SKILLS_DIR": dir}, "eval", q)
	if !strings.Contains(stdout, "same name elsewhere came first") || !strings.Contains(stdout, "same name 1 of the top-1 misses") {
		t.Errorf("text report:\n%s", stdout)
	}
}
