package skillscmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/eval"
)

func TestEvalTriggerFile(t *testing.T) {
	t.Parallel()
	dir := officeTree(t)
	inSkill := filepath.Join(dir, "pdf", "evals", "trigger-evals.json")
	writeTree(t, dir, map[string]string{"pdf/evals/trigger-evals.json": string(readSample(t, "trigger-evals.json"))})
	stdout, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--json", inSkill)
	if code != exitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	var got eval.TriggerReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, stdout)
	}
	if got.ShouldTrigger != 2 || got.Triggered != 2 || got.ShouldNotTrigger != 2 || got.NotTriggered != 1 ||
		len(got.Misses) != 1 || got.Misses[0].Item != 4 || got.Misses[0].Skill != "pdf" || got.Misses[0].ShouldTrigger {
		t.Errorf("report %+v\nwant 2/2 triggered, 1/2 rightly not, item 4 the one miss", got)
	}
	text, _, _ := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", inSkill)
	for _, w := range []string{`miss (item 4): "read the PDF documents and merge them" should not trigger pdf`,
		"should trigger      2/2 (100.0%)", "should not trigger  1/2 rightly not (50.0%)"} {
		if !strings.Contains(text, w) {
			t.Errorf("text report lacks %q:\n%s", w, text)
		}
	}

	// Outside a skill's folder, each item names its skill.
	named := filepath.Join(t.TempDir(), "evals.json")
	if err := os.WriteFile(named, []byte(`[{"query": "a sum formula in a spreadsheet", "should_trigger": true, "skill": "xlsx"},
		{"query": "merge two PDF documents", "should_trigger": true, "skill": "pdf"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--json", "--min-top1", "1", named)
	if err := json.Unmarshal([]byte(stdout), &got); code != exitOK || err != nil || got.Triggered != 2 {
		t.Errorf("items naming their skills: exit %d, %+v\n%s", code, got, stderr)
	}
}

func TestEvalTriggerFileErrors(t *testing.T) {
	t.Parallel()
	dir := officeTree(t)
	for name, tc := range map[string]struct {
		content  string
		args     []string
		wantCode int
		want     string
	}{
		"no skill":                {`[{"query": "merge PDFs", "should_trigger": true}]`, nil, exitUsage, "which skill is it for?"},
		"unknown skill":           {`[{"query": "merge PDFs", "should_trigger": true, "skill": "nope"}]`, nil, exitUsage, `no skill has the path or name "nope"`},
		"should_trigger missing":  {`[{"query": "merge PDFs", "skill": "pdf"}]`, nil, exitUsage, "item 1: should_trigger is missing"},
		"empty query":             {`[{"query": " ", "should_trigger": true, "skill": "pdf"}]`, nil, exitUsage, "item 1: query is empty"},
		"not an array of objects": {`[1, 2]`, nil, exitUsage, "not a trigger-eval file"},
		"empty array":             {`[]`, nil, exitUsage, "holds no query"},
		"text after the array":    {`[{"query": "q", "should_trigger": true, "skill": "pdf"}] x`, nil, exitUsage, "text after the JSON array"},
		"under --min-top1":        {`[{"query": "make slide decks", "should_trigger": true, "skill": "pdf"}]`, []string{"--min-top1", "0.5"}, exitFailed, "FAIL: should-trigger rate 0.0%"},
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "evals.json")
			if err := os.WriteFile(file, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, append(append([]string{"eval"}, tc.args...), file)...)
			if code != tc.wantCode || !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("exit %d, want %d; output %q, want %q", code, tc.wantCode, stdout+stderr, tc.want)
			}
		})
	}
}

// The format is told by content, whatever the file's name: our JSON lines
// still route as before.
func TestEvalFormatByContent(t *testing.T) {
	t.Parallel()
	dir := officeTree(t)
	file := filepath.Join(t.TempDir(), "queries.json")
	if err := os.WriteFile(file, []byte("\n# ours\n{\"query\": \"merge PDF documents\", \"expect\": [\"pdf\"]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--json", file)
	var out eval.Output
	if err := json.Unmarshal([]byte(stdout), &out); code != exitOK || err != nil || len(out.Files) != 1 || out.Files[0].Answerable != 1 || out.Files[0].Top1 != 1 {
		t.Errorf("queries file: exit %d, %+v\n%s", code, out, stderr)
	}
	if !reflect.DeepEqual(eval.IsTriggerFile([]byte("\ufeff  [\n")), true) || eval.IsTriggerFile([]byte("{\"query\":\"[\"}")) {
		t.Errorf("eval.IsTriggerFile: a BOM and spaces before [ is a trigger file, a JSON line is not")
	}
}
