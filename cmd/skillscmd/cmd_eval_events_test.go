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

// officeTree is four Agent Skills of one collection.
func officeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pdf/SKILL.md":    agentSkill("pdf", "Read, fill and merge PDF documents.", "# PDF\n"),
		"docx/SKILL.md":   agentSkill("docx", "Write and edit Word documents.", "# Word\n"),
		"xlsx/SKILL.md":   agentSkill("xlsx", "Build spreadsheets with formulas and charts.", "# Excel\n"),
		"slides/SKILL.md": agentSkill("slides", "Make slide decks for a talk.", "# Slides\n"),
	})
	return dir
}

func TestEvalEventsReport(t *testing.T) {
	t.Parallel()
	dir := officeTree(t)
	events := filepath.Join(t.TempDir(), "analytics-events.jsonl")
	if err := os.WriteFile(events, readSample(t, "events.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--json", "--events", events)
	if code != exitOK {
		t.Fatalf("eval --events: exit %d\n%s", code, stderr)
	}
	var got eval.EventsReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, stdout)
	}
	want := eval.EventsReport{
		File: events, Events: 13, Skipped: 1,
		ByType: map[string]int{"no_match": 3, "ambiguous": 3, "skill_served": 2, "skill_feedback": 4, "refresh": 1},
		From:   "2026-03-01T09:00:00.000Z", To: "2026-03-03T11:00:00.000Z",
		NoMatch: []eval.CountedText{{Text: "book a table for two", Count: 2}, {Text: "what is the capital of france", Count: 1}},
		Ambiguous: []eval.AmbiguousPair{
			{Skills: [2]string{"docx", "pdf"}, Count: 2, Example: "a printable document"},
			{Skills: [2]string{"docx", "xlsx"}, Count: 1, Example: "numbers in a table"},
		},
		NeverServed: []string{"docx", "slides"},
		NotUseful: []eval.FeedbackCount{
			{SkillPath: "xlsx", NotUseful: 2, Comments: []string{"no pivot tables"}},
			{SkillPath: "slides", NotUseful: 1, Comments: []string{"too long and vague"}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("report\n%+v\nwant\n%+v", got, want)
	}
	// The text report: sorted, and the same on every run.
	text, _, _ := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--events", events)
	again, _, _ := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, "eval", "--events", events)
	if text != again {
		t.Errorf("two runs differ:\n%s\n---\n%s", text, again)
	}
	for _, w := range []string{
		"2× \"book a table for two\"\n     1× \"what is the capital of france\"",
		"2× docx | pdf  e.g. \"a printable document\"",
		"skills never served: 2\n  docx\n  slides",
		"2× xlsx (useful 0)\n        \"no pivot tables\"",
		"(1 lines skipped: not an event)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("text report lacks %q:\n%s", w, text)
		}
	}
}

// TestEvalEventsFromTheJSONLSink: a server with the jsonl sink keeps its
// traffic in the state directory, and eval --events reads it back.
func TestEvalEventsFromTheJSONLSink(t *testing.T) {
	t.Parallel()
	dir, state := officeTree(t), t.TempDir()
	writeTree(t, dir, map[string]string{"config.yaml": "analytics:\n  enabled: true\n  sink: jsonl\n"})
	call := func(id int, tool string, args map[string]any) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
		return string(b) + "\n"
	}
	session := initializeLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		call(2, "get_skill", map[string]any{"context": "zzqx plomf vrrkt"}) +
		call(3, "get_skill", map[string]any{"context": "merge PDF documents"}) +
		call(4, "report_usage", map[string]any{"skill_path": "pdf", "useful": false, "comment": "no OCR"})
	env := map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": state}
	if _, stderr, code := runWith(t, New(nil), session, env, "serve"); code != exitOK {
		t.Fatalf("serve: exit %d\n%s", code, stderr)
	}
	file := filepath.Join(state, "analytics-events.jsonl")
	stdout, stderr, code := runWith(t, New(nil), "", env, "eval", "--json", "--events", file)
	if code != exitOK {
		t.Fatalf("eval --events: exit %d\n%s", code, stderr)
	}
	var rep eval.EventsReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Skipped != 0 || len(rep.NoMatch) != 1 || rep.NoMatch[0].Text != "zzqx plomf vrrkt" ||
		!reflect.DeepEqual(rep.NeverServed, []string{"docx", "slides", "xlsx"}) ||
		len(rep.NotUseful) != 1 || rep.NotUseful[0].SkillPath != "pdf" || !reflect.DeepEqual(rep.NotUseful[0].Comments, []string{"no OCR"}) {
		t.Errorf("report of the served traffic:\n%s", stdout)
	}
	// Nothing empties the file: a second server appends to it.
	if _, stderr, code := runWith(t, New(nil), session, env, "serve"); code != exitOK {
		t.Fatalf("second serve: exit %d\n%s", code, stderr)
	}
	stdout, _, _ = runWith(t, New(nil), "", env, "eval", "--json", "--events", file)
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.NoMatch) != 1 || rep.NoMatch[0].Count != 2 {
		t.Errorf("after a second session the no_match context counts %+v, want 2", rep.NoMatch)
	}
}

func TestEvalEventsErrors(t *testing.T) {
	t.Parallel()
	dir := officeTree(t)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"missing file":           {[]string{"--events", filepath.Join(t.TempDir(), "none.jsonl")}, "--events: open"},
		"no file and no queries": {nil, "give a queries file"},
	} {
		t.Run(name, func(t *testing.T) {
			_, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir}, append([]string{"eval"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", code, exitUsage, stderr, tc.want)
			}
		})
	}
}

// readSample reads a sample input of internal/eval's testdata, shared with
// that package's fuzz seeds.
func readSample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "eval", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
