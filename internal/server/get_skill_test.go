package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

func TestGetSkillSingleMatch(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	text, isErr := h.call(t, "get_skill", map[string]any{"context": "React login with auth"})
	if isErr {
		t.Fatalf("unexpected error: %s", text)
	}
	want := `{"skill_path":"ui/react/auth","score":0.75,"matched_keywords":["react","auth","login"],` +
		`"content":"=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n=== UI (from ui/_index.md) ===\n\nUI rules\n\n` +
		`=== UI > REACT (from ui/react/_index.md) ===\n\nReact rules\n\n=== UI > REACT > AUTH (from ui/react/auth.md) ===\n\nAuth rules",` +
		`"assets":[{"file":"AuthProvider.tsx","description":"","type":"template"},{"file":"tool.wasm","description":"","type":"other"},{"file":"component-base.tsx","description":"","type":"template"},` +
		`{"file":"flow.png","description":"","type":"image"},{"file":"ghost.txt","description":"","type":"other"}],` +
		`"scripts":[{"file":"scaffold.sh","description":"Scaffold","execution":"server","args":[{"name":"name","description":"","required":true}]}],` +
		`"inherited_assets":[{"file":"global.css","description":"Global styles","type":"style","from":"_root"},` +
		`{"file":"design-tokens.json","description":"","type":"config","from":"ui/_index"}],"inherited_scripts":[],` +
		`"base_directory":` + jsonString(filepath.Join(h.dir, "ui", "react", "auth")) + `}`
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	ev := h.events.last(t)
	if ev.Type != core.EventSkillServed || ev.Data["skill_path"] != "ui/react/auth" || ev.Data["was_ambiguous"] != false {
		t.Errorf("event = %+v, want skill_served for ui/react/auth, not ambiguous", ev)
	}
}

func TestGetSkillAmbiguous(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	text, _ := h.call(t, "get_skill", map[string]any{"context": "auth"})
	want := `{"ambiguous":true,"candidates":[` +
		`{"skill_path":"api/auth","score":0.333,"description":"API authentication with JWT middleware","matched_keywords":["auth"]},` +
		`{"skill_path":"ui/react/auth","score":0.25,"description":"React authentication components and patterns","matched_keywords":["auth"]}],` +
		`"message":"Multiple skills match. Specify your need or pick a skill_path."}`
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	ev := h.events.last(t)
	if ev.Type != core.EventAmbiguous {
		t.Fatalf("event type = %s, want ambiguous", ev.Type)
	}
	if got, _ := json.Marshal(ev.Data["candidates"]); string(got) != `["api/auth","ui/react/auth"]` {
		t.Errorf("candidates = %s", got)
	}

	// Picking a candidate by skill_path serves it and records the ambiguity.
	out := h.callJSON(t, "get_skill", map[string]any{"context": "auth", "skill_path": "ui/react/auth"})
	if out["skill_path"] != "ui/react/auth" || out["score"] != 0.25 {
		t.Errorf("picked = %v, want ui/react/auth with score 0.25", out)
	}
	if ev := h.events.last(t); ev.Type != core.EventSkillServed || ev.Data["was_ambiguous"] != true {
		t.Errorf("event = %+v, want skill_served with was_ambiguous", ev)
	}
}

func TestGetSkillNoMatch(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]map[string]string{
		"unrelated context": specTree(),
		"empty directory":   {},
	} {
		t.Run(name, func(t *testing.T) {
			h := start(t, writeTree(t, files), nil)
			text, isErr := h.call(t, "get_skill", map[string]any{"context": "database migration rollback"})
			want := `{"no_match":true,"message":"No skill matches the given context.",` +
				`"hint":"Browse the skills with list_skills and call get_skill with a skill_path, or describe the task in other words."}`
			if text != want || isErr {
				t.Errorf("got %s (isError %v), want %s", text, isErr, want)
			}
			if ev := h.events.last(t); ev.Type != core.EventNoMatch || ev.Data["context"] != "database migration rollback" {
				t.Errorf("event = %+v", ev)
			}
		})
	}
}

// TestGetSkillNoMatchNextStep: a no_match answer keeps spec 000's fields and
// adds the closest skills (those the matcher scored below min_score) and a
// hint naming the tool to browse with, whichever tool set is served (issue 29).
func TestGetSkillNoMatchNextStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		sets            []string
		minScore        float64
		maxResults      int
		context         string
		wantSuggestions []string
		wantHint        []string
	}{
		{name: "below min_score", sets: []string{"core"}, minScore: 0.9, maxResults: 3, context: "auth",
			wantSuggestions: []string{"api/auth", "ui/react/auth"}, wantHint: []string{"below min_score (0.9)", "list_skills"}},
		{name: "max_results bounds them", sets: []string{"core"}, minScore: 0.9, maxResults: 1, context: "auth",
			wantSuggestions: []string{"api/auth"}, wantHint: []string{"list_skills"}},
		{name: "nothing close, sk served", sets: []string{"core", "sk"}, minScore: 0.2, maxResults: 3, context: "quantum knitting",
			wantHint: []string{"skills_search"}},
		{name: "close ones, sk served", sets: []string{"core", "sk"}, minScore: 0.9, maxResults: 3, context: "jwt",
			wantSuggestions: []string{"api/auth"}, wantHint: []string{"get_skill with the skill_path", "skills_search"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := start(t, writeTree(t, specTree()), func(o *server.Options) {
				o.ToolSets = tt.sets
				o.Config.Matching.MinScore = tt.minScore
				o.Config.Matching.MaxResults = tt.maxResults
			})
			out := checkStructured(t, h.session, outputSchemas(t, h.session), "get_skill", map[string]any{"context": tt.context})
			if out["no_match"] != true || out["message"] != "No skill matches the given context." {
				t.Errorf("got %v, want spec 000's no_match and message", out)
			}
			var got []string
			sugg, _ := out["suggestions"].([]any)
			for _, s := range sugg {
				m := s.(map[string]any)
				got = append(got, m["skill_path"].(string))
				if m["description"] == "" || m["score"].(float64) >= tt.minScore {
					t.Errorf("suggestion %v: want a description and a score below %v", m, tt.minScore)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.wantSuggestions, ",") {
				t.Errorf("suggestions %q, want %q", got, tt.wantSuggestions)
			}
			if _, present := out["suggestions"]; present != (len(tt.wantSuggestions) > 0) {
				t.Errorf("suggestions present: %v, want %v", present, len(tt.wantSuggestions) > 0)
			}
			hint, _ := out["hint"].(string)
			mustContain(t, hint, tt.wantHint...)
		})
	}
}

func TestGetSkillInheritFalse(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	out := h.callJSON(t, "get_skill", map[string]any{"context": "standalone"})
	if out["content"] != "Just me." {
		t.Errorf("content = %q, want only the skill's own content", out["content"])
	}
	if got, _ := json.Marshal(out["inherited_assets"]); string(got) != "[]" {
		t.Errorf("inherited_assets = %s, want []", got)
	}
}

func TestGetSkillErrors(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, specTree()), nil)
	tests := []struct {
		name string
		args any
		want string
	}{
		{"missing context", map[string]any{}, "missing required argument(s): context"},
		{"context not a string", map[string]any{"context": 42}, `argument "context" must be a string`},
		{"unknown skill_path", map[string]any{"context": "x", "skill_path": "ui/vue"}, "Skill not found: ui/vue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { mustContain(t, h.callError(t, "get_skill", tt.args), tt.want) })
	}
}

func TestInvalidFrontmatterIsSkipped(t *testing.T) {
	t.Parallel()
	files := specTree()
	files["broken.md"] = "---\ndescription: [unclosed\n---\nbody\n"
	files["nokeywords.md"] = "---\ndescription: No keywords here\n---\nbody\n"
	h := start(t, writeTree(t, files), nil)
	out := h.callJSON(t, "refresh_skills", map[string]any{})
	if out["skills_reindexed"] != float64(6) {
		t.Errorf("skills_reindexed = %v, want 6 (the two invalid files skipped)", out["skills_reindexed"])
	}
	h.callError(t, "get_asset", map[string]any{"skill_path": "broken", "file": "x"})
}

// TestGetSkillReadsBodiesOnDemand: bodies are read from the skill files when a
// skill is served, so a file removed since the rebuild is a tool error naming
// the skill and the way out, and the server keeps answering.
func TestGetSkillReadsBodiesOnDemand(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	h := start(t, dir, nil)
	if err := os.Remove(filepath.Join(dir, "ui", "react", "_index.md")); err != nil {
		t.Fatal(err)
	}
	msg := h.callError(t, "get_skill", map[string]any{"context": "React login with auth"})
	for _, want := range []string{"ui/react/_index", "refresh_skills"} {
		if !strings.Contains(msg, want) {
			t.Errorf("got %q, want it to name %q", msg, want)
		}
	}
	h.call(t, "refresh_skills", map[string]any{})
	out := h.callJSON(t, "get_skill", map[string]any{"context": "React login with auth"})
	if content, _ := out["content"].(string); strings.Contains(content, "UI > REACT (from") || !strings.Contains(content, "Auth rules") {
		t.Errorf("after refresh_skills: got content %q, want auth without the removed category", content)
	}
}
