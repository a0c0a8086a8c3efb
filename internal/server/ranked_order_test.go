package server_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// documentSkills are near neighbours, as public collections hold them.
func documentSkills() map[string]string {
	skill := func(name, desc, body string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body
	}
	return map[string]string{
		"pdf/SKILL.md": skill("pdf", "Extract text and tables from PDF files, merge and split documents, and create new PDFs.",
			"# PDF processing\n\nUse pypdf to read and write PDF files.\n"),
		"pdf-forms/SKILL.md": skill("pdf-forms", "Fill in PDF forms — list the fields of an AcroForm, set their values and flatten the form.",
			"# Filling forms\n\nRead the field names first, then fill and flatten.\n"),
		"docx/SKILL.md": skill("docx", "Create and edit Word documents (.docx) with tracked changes and comments.",
			"# Word documents\n\nUse python-docx.\n"),
		"pptx/SKILL.md": skill("pptx", "Build PowerPoint slide decks (.pptx) from an outline, with layouts and speaker notes.",
			"# Slides\n\nUse python-pptx.\n"),
	}
}

// withRanked serves dir indexed with the ranked matcher.
func withRanked(t *testing.T, dir string, sets ...string) func(*server.Options) {
	return func(o *server.Options) {
		idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: ranked.New()})
		if _, err := idx.Rebuild(context.Background()); err != nil {
			t.Fatalf("Rebuild: %v", err)
		}
		o.Index, o.ToolSets = idx, sets
	}
}

// TestSkillsSearchRanksAsGetSkill: skills_search answers in the configured
// matcher's order, which a task description (no skill holds all of its words)
// reaches, and get_skill's winner comes first.
func TestSkillsSearchRanksAsGetSkill(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, documentSkills())
	h := start(t, dir, withRanked(t, dir, server.ToolSetSk, server.ToolSetCore))
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"fill in this PDF form and flatten it", []string{"pdf-forms", "pdf"}},
		{"pdf", []string{"pdf", "pdf-forms"}},
		{"turn my outline into slides", []string{"pptx"}},
	} {
		_, structured := h.callStructured(t, "skills_search", map[string]any{"query": tt.query})
		var out searchOut
		if err := json.Unmarshal([]byte(structured), &out); err != nil {
			t.Fatal(err)
		}
		if got := out.names(); !reflect.DeepEqual(got, tt.want) || out.Total != len(tt.want) {
			t.Errorf("skills_search(%q) = %v (total %d), want %v", tt.query, got, out.Total, tt.want)
		}
		text, _ := h.callStructured(t, "get_skill", map[string]any{"context": tt.query})
		if !strings.Contains(text, `"skill_path":"`+tt.want[0]+`"`) {
			t.Errorf("get_skill(%q) = %.200s, want %s first", tt.query, text, tt.want[0])
		}
	}
}

// TestSkillNotFoundListsTheClosestFirst: the skill tool's not-found answer
// starts with the closest names, then what the matcher ranks for the name.
func TestSkillNotFoundListsTheClosestFirst(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, documentSkills())
	h := start(t, dir, withRanked(t, dir, server.ToolSetSkill))
	text := h.callError(t, "skill", map[string]any{"name": "pdf-form"})
	lines := strings.Split(text, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "- pdf-forms:") || !strings.HasPrefix(lines[2], "- pdf:") {
		t.Errorf("not-found answer:\n%s\nwant pdf-forms then pdf first", text)
	}
}
