package skillscmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// run_script's refusals name what is wrong: an argument the script does not
// declare (with the declared ones), an unknown key given for a known one
// (`script` for `file`), and, for a client-side script, the runner configured
// for its extension.
func TestRunScriptErrorsNameTheProblem(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "bash")
	s, _ := serveTree(t, map[string]string{
		"tools/size.md": "---\ndescription: Size check\nkeywords: [size]\nscripts:\n" +
			"  - file: scripts/check.sh\n    execution: server\n    args:\n      - name: changed_lines\n      - name: limit\n        required: false\n" +
			"  - file: scripts/fill.py\n    execution: claude\n" +
			"---\n# Size\n",
		"tools/size/scripts/check.sh": "echo \"$SKILL_ARG_CHANGED_LINES\"\n",
		"tools/size/scripts/fill.py":  "print(1)\n",
	})
	tests := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"undeclared argument", map[string]any{"skill_path": "tools/size", "file": "scripts/check.sh",
			"args": map[string]any{"changed_lines": "10", "changed-lines": "10"}},
			[]string{`"changed-lines" not declared`, "it declares changed_lines (required), limit"}},
		{"script for file", map[string]any{"skill_path": "tools/size", "script": "scripts/check.sh"},
			[]string{"unknown argument(s): script (allowed: args, cwd, file, skill_path)", "missing required argument(s): file"}},
		{"client-side python", map[string]any{"skill_path": "tools/size", "file": "scripts/fill.py"},
			[]string{`execution "claude"`, "for example with python3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, isErr := s.call(t, "run_script", tt.args)
			var body struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal([]byte(raw), &body); err != nil || !isErr {
				t.Fatalf("want an error result, got %s", raw)
			}
			text := body.Message
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s lacks %q", text, w)
				}
			}
			if strings.Contains(text, "bash") {
				t.Errorf("%s suggests bash", text)
			}
		})
	}
	text, isErr := s.call(t, "run_script", map[string]any{"skill_path": "tools/size", "file": "scripts/check.sh", "args": map[string]any{"changed_lines": "10"}})
	if isErr || !strings.Contains(text, `"exit_code":0`) {
		t.Errorf("the declared arguments alone: error %v\n%s", isErr, text)
	}
}
