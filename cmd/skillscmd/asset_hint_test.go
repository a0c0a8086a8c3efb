package skillscmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// get_asset with a file name in the wrong case (or the right name in the
// wrong folder) keeps the spec-000 error shape and says what was meant, then
// lists the skill's files, bounded.
func TestGetAssetNotFoundSuggests(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"skills/pdf/SKILL.md":             agentSkill("pdf", "Reads PDFs.", "# pdf\nSee forms.md.\n"),
		"skills/pdf/forms.md":             "# Forms\n",
		"skills/pdf/references/layout.md": "# Layout\n",
		"skills/pdf/scripts/fill.py":      "print(1)\n",
	}
	for i := 0; i < 30; i++ {
		files["skills/big/assets/f"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".txt"] = "x\n"
	}
	files["skills/big/SKILL.md"] = agentSkill("big", "Many files.", "# big\n")
	s, _ := serveTree(t, files)
	tests := []struct {
		name, skill, file string
		want, notWant     []string
	}{
		{"case", "skills/pdf", "FORMS.md", []string{`did you mean "forms.md"?`, `the skill's files: "forms.md", "references/layout.md", "scripts/fill.py"`}, nil},
		{"folder", "skills/pdf", "layout.md", []string{`did you mean "references/layout.md"?`}, nil},
		{"nothing near", "skills/pdf", "nope.md", []string{`the skill's files: "forms.md"`}, []string{"did you mean"}},
		{"bounded", "skills/big", "nope.md", []string{"(and 10 more)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr := s.call(t, "get_asset", map[string]any{"skill_path": tt.skill, "file": tt.file})
			var body struct {
				Error   bool   `json:"error"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal([]byte(text), &body); err != nil || !isErr || !body.Error {
				t.Fatalf("want an error result {error, message}, got (error %v) %s", isErr, text)
			}
			if !strings.Contains(body.Message, "asset not found") {
				t.Errorf("message %q does not say asset not found", body.Message)
			}
			for _, w := range tt.want {
				if !strings.Contains(body.Message, w) {
					t.Errorf("message %q lacks %q", body.Message, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(body.Message, w) {
					t.Errorf("message %q has %q", body.Message, w)
				}
			}
		})
	}
}
