package server_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/server"
)

// gitSummary is the SkillSummary of mixedTree's git skill, without body.
const gitSummary = `{"installName":"git","meta":{"name":"git","description":"Git deployment workflow skill"},"skillPath":"git","skillFile":"git/SKILL.md"}`

func TestSkillsList(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	t.Run("everything, sorted by installName", func(t *testing.T) {
		_, structured := h.callStructured(t, "skills_list", map[string]any{})
		var out struct {
			Skills []struct {
				InstallName string  `json:"installName"`
				Body        *string `json:"body"`
			} `json:"skills"`
		}
		if err := json.Unmarshal([]byte(structured), &out); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range out.Skills {
			names = append(names, s.InstallName)
			if s.Body != nil {
				t.Errorf("%s: body present without includeBody", s.InstallName)
			}
		}
		want := []string{"_root", "api/auth", "git", "mcp-builder", "no-inherit", "ui/_index", "ui/react/_index", "ui/react/auth", "xml-trick"}
		if !reflect.DeepEqual(names, want) {
			t.Errorf("got %v, want %v", names, want)
		}
	})
	tests := []struct {
		name           string
		args           map[string]any
		wantText       string
		wantStructured string
	}{
		{"query on the description", map[string]any{"query": "Deployment"},
			"1 skill matched.\n- git (git/SKILL.md): Git deployment workflow skill", `{"skills":[` + gitSummary + `]}`},
		{"query on the install name, both formats", map[string]any{"query": "AUTH"},
			"2 skills matched.\n- api/auth (api/auth.md): API authentication with JWT middleware\n" +
				"- ui/react/auth (ui/react/auth.md): React authentication components and patterns",
			`{"skills":[{"installName":"api/auth","meta":{"name":"auth","description":"API authentication with JWT middleware"},"skillPath":"api/auth","skillFile":"api/auth.md"},` +
				`{"installName":"ui/react/auth","meta":{"name":"auth","description":"React authentication components and patterns"},"skillPath":"ui/react/auth","skillFile":"ui/react/auth.md"}]}`},
		{"includeBody", map[string]any{"query": "git", "includeBody": true},
			"1 skill matched.\n- git (git/SKILL.md): Git deployment workflow skill",
			`{"skills":[{"installName":"git","meta":{"name":"git","description":"Git deployment workflow skill"},"skillPath":"git","skillFile":"git/SKILL.md",` +
				`"body":"\n# Git Deployment GitOps\n\n## Overview\n\nManage commits and merge requests...\n"}]}`},
		{"no match", map[string]any{"query": "kubernetes"}, "0 skills matched.", `{"skills":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, structured := h.callStructured(t, "skills_list", tt.args)
			if text != tt.wantText {
				t.Errorf("text\n%s\nwant\n%s", text, tt.wantText)
			}
			if want := canonical(t, strings.ReplaceAll(tt.wantStructured, "\n", `\n`)); structured != want {
				t.Errorf("structuredContent\n%s\nwant\n%s", structured, want)
			}
		})
	}
	mustContain(t, h.callError(t, "skills_list", map[string]any{"filter": "x"}), "unknown argument(s): filter")
	mustContain(t, h.callError(t, "skills_list", map[string]any{"includeBody": "yes"}), `argument "includeBody" must be a boolean`)
}

type searchOut struct {
	Query   string `json:"query"`
	Limit   int    `json:"limit"`
	Total   int    `json:"total"`
	Results []struct {
		InstallName string `json:"installName"`
		SkillFile   string `json:"skillFile"`
		Score       int    `json:"score"`
		Excerpt     string `json:"excerpt"`
	} `json:"results"`
}

func (o searchOut) names() []string {
	names := []string{}
	for _, r := range o.Results {
		names = append(names, r.InstallName)
	}
	return names
}

func TestSkillsSearch(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	tests := []struct {
		name       string
		args       map[string]any
		wantNames  []string
		wantTotal  int
		wantLimit  int
		wantScore  int
		wantInText string
	}{
		{"all tokens in the body", map[string]any{"query": "Merge REQUESTS"}, []string{"git"}, 1, 10, 2, `1 skill matched "Merge REQUESTS".`},
		{"tokens spread over name and body", map[string]any{"query": "mcp-builder stdio"}, []string{"mcp-builder"}, 1, 10, 2, "- mcp-builder (mcp-builder/SKILL.md): "},
		{"one token missing", map[string]any{"query": "merge postgres"}, []string{}, 0, 10, 0, `0 skills matched "merge postgres".`},
		{"both formats", map[string]any{"query": "auth"}, []string{"api/auth", "ui/react/auth"}, 2, 10, 1, "2 skills matched"},
		{"limit keeps the first by installName, total counts all", map[string]any{"query": "rules", "limit": 2},
			[]string{"_root", "api/auth"}, 5, 2, 1, `5 skills matched "rules" (showing the first 2).`},
		{"limit at the maximum", map[string]any{"query": "rules", "limit": 25},
			[]string{"_root", "api/auth", "ui/_index", "ui/react/_index", "ui/react/auth"}, 5, 25, 1, "5 skills matched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, structured := h.callStructured(t, "skills_search", tt.args)
			var out searchOut
			if err := json.Unmarshal([]byte(structured), &out); err != nil {
				t.Fatal(err)
			}
			if got := out.names(); !reflect.DeepEqual(got, tt.wantNames) || out.Total != tt.wantTotal || out.Limit != tt.wantLimit || out.Query != tt.args["query"] {
				t.Errorf("got %v total %d limit %d query %q, want %v total %d limit %d", got, out.Total, out.Limit, out.Query, tt.wantNames, tt.wantTotal, tt.wantLimit)
			}
			for _, r := range out.Results {
				if r.Score != tt.wantScore {
					t.Errorf("%s: score %d, want %d", r.InstallName, r.Score, tt.wantScore)
				}
			}
			mustContain(t, text, tt.wantInText)
		})
	}
}

func TestSkillsSearchExcerpt(t *testing.T) {
	t.Parallel()
	files := mixedTree()
	files["french/SKILL.md"] = "---\nname: french\ndescription: Données\n---\n" + strings.Repeat("des données éparses ", 20) + "clé unique " + strings.Repeat("des données éparses ", 20)
	files["short/SKILL.md"] = "---\nname: short\ndescription: Short one\n---\nTiny   body\nhere.\n"
	h := start(t, writeTree(t, files), withSets(server.ToolSetSk))
	flat := strings.Join(strings.Fields(mcpBuilderBody), " ")
	at := strings.Index(flat, "stdio")
	tests := []struct {
		name, query, want string
	}{
		{"window of 160 characters centred on the first token", "stdio transport", "…" + strings.TrimSpace(flat[at-77:at+83]) + "…"},
		{"first token matched outside the body: start of the body", "mcp-builder", strings.TrimSpace(flat[:160]) + "…"},
		{"short body whole, whitespace collapsed", "tiny", "Tiny body here."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, structured := h.callStructured(t, "skills_search", map[string]any{"query": tt.query})
			var out searchOut
			if err := json.Unmarshal([]byte(structured), &out); err != nil {
				t.Fatal(err)
			}
			if len(out.Results) != 1 || out.Results[0].Excerpt != tt.want {
				t.Errorf("got %+v\nwant one hit with excerpt %q", out.Results, tt.want)
			}
		})
	}
	t.Run("multi-byte text stays valid UTF-8", func(t *testing.T) {
		_, structured := h.callStructured(t, "skills_search", map[string]any{"query": "CLÉ"})
		var out searchOut
		if err := json.Unmarshal([]byte(structured), &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Results) != 1 {
			t.Fatalf("got %v, want the french skill", out.names())
		}
		ex := out.Results[0].Excerpt
		if !utf8.ValidString(ex) || utf8.RuneCountInString(ex) > 162 || !strings.Contains(ex, "clé unique") ||
			!strings.HasPrefix(ex, "…") || !strings.HasSuffix(ex, "…") {
			t.Errorf("excerpt %q: want valid UTF-8, at most 160 characters plus two ellipses, around \"clé unique\"", ex)
		}
	})
}

func TestSkillsSearchErrors(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"missing query", map[string]any{}, "missing required argument(s): query"},
		{"blank query", map[string]any{"query": "  "}, "query must hold at least one keyword"},
		{"limit zero", map[string]any{"query": "git", "limit": 0}, "limit must be an integer from 1 to 25, got 0"},
		{"limit too large", map[string]any{"query": "git", "limit": 26}, "limit must be an integer from 1 to 25, got 26"},
		{"limit not an integer", map[string]any{"query": "git", "limit": 2.5}, "limit must be an integer from 1 to 25, got 2.5"},
		{"limit a string", map[string]any{"query": "git", "limit": "5"}, `limit must be an integer from 1 to 25, got "5"`},
		{"extra argument", map[string]any{"query": "git", "offset": 3}, "unknown argument(s): offset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { mustContain(t, h.callError(t, "skills_search", tt.args), tt.want) })
	}
}

func TestSkillsShow(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	gitBody := "\n# Git Deployment GitOps\n\n## Overview\n\nManage commits and merge requests...\n"
	tests := []struct {
		name, arg                string
		wantText, wantStructured string
	}{
		{"agent skill", "git", gitBody, `{"name":"git","skillFile":"git/SKILL.md","body":` + jsonString(gitBody) + `}`},
		{"case-insensitive", "MCP-Builder", mcpBuilderBody, `{"name":"mcp-builder","skillFile":"mcp-builder/SKILL.md","body":` + jsonString(mcpBuilderBody) + `}`},
		{"tree skill by path: its own body", "ui/react/auth", "Auth rules\n", `{"name":"ui/react/auth","skillFile":"ui/react/auth.md","body":"Auth rules\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, structured := h.callStructured(t, "skills_show", map[string]any{"name": tt.arg})
			if text != tt.wantText {
				t.Errorf("text %q, want %q", text, tt.wantText)
			}
			if want := canonical(t, tt.wantStructured); structured != want {
				t.Errorf("structuredContent\n%s\nwant\n%s", structured, want)
			}
		})
	}
	mustContain(t, h.callError(t, "skills_show", map[string]any{"name": "nope"}), "Skill not found: nope", "skills_list")
	mustContain(t, h.callError(t, "skills_show", map[string]any{"name": ""}), "name must not be empty")
}

// jsonString encodes s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestSkToolsDeclareOutputSchemas(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	want := map[string][]string{
		"skills_list":   {"skills"},
		"skills_search": {"limit", "query", "results", "total"},
		"skills_show":   {"body", "name", "skillFile"},
	}
	for name, required := range want {
		tool := h.tool(t, name)
		b, _ := json.Marshal(tool.OutputSchema)
		var s struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: output schema %s is not an object schema", name, b)
		}
		sort.Strings(s.Required)
		if !reflect.DeepEqual(s.Required, required) {
			t.Errorf("%s: output schema requires %v, want %v", name, s.Required, required)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not annotated read-only", name)
		}
	}
}

var hostSafeName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func TestToolSetsServeTheirTools(t *testing.T) {
	t.Parallel()
	core := []string{"get_asset", "get_skill", "list_skills", "refresh_skills", "report_usage", "run_script"}
	sk := []string{"skills_list", "skills_search", "skills_show"}
	tests := []struct {
		name string
		sets []string
		want []string
	}{
		{"default is core only", nil, core},
		{"skill", []string{"skill"}, []string{"skill"}},
		{"sk", []string{"sk"}, sk},
		{"all three", []string{"core", "skill", "sk"}, append(append(append([]string{}, core...), "skill"), sk...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, writeTree(t, mixedTree()), withSets(tt.sets...))
			got := h.toolNames(t)
			sort.Strings(got)
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tools %v, want %v", got, want)
			}
			for _, name := range got {
				if !hostSafeName.MatchString(name) {
					t.Errorf("tool name %q does not match %s", name, hostSafeName)
				}
			}
		})
	}
	if got, want := server.ToolSetNames(), []string{"core", "sk", "skill"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToolSetNames() = %v, want %v", got, want)
	}
	if err := server.CheckToolSets([]string{"skill", "sk", "core"}); err != nil {
		t.Errorf("CheckToolSets: %v", err)
	}
}

func TestCoreSetUnaffected(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets("core", "skill", "sk"))
	if out := h.callJSON(t, "get_skill", map[string]any{"context": "React login with auth"}); out["skill_path"] != "ui/react/auth" {
		t.Errorf("get_skill got %v, want ui/react/auth", out)
	}
	text, _ := h.call(t, "list_skills", map[string]any{"path": "api/auth"})
	mustContain(t, text, `"path":"api/auth"`)
}

func TestInstructionsFollowToolSets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		sets          []string
		want, notWant []string
	}{
		{"core", nil, []string{"get_skill", "report_usage"}, []string{"skills_list", "call skill"}},
		{"skill", []string{"skill"}, []string{"call skill with its name"}, []string{"get_skill", "skills_list"}},
		{"sk", []string{"sk"}, []string{"skills_list", "skills_search", "skills_show"}, []string{"get_skill", "call skill"}},
		{"all", []string{"sk", "skill", "core"}, []string{"get_skill", "call skill with its name", "skills_search"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, writeTree(t, mixedTree()), withSets(tt.sets...))
			got := h.session.InitializeResult().Instructions
			if got != server.DefaultInstructions(tt.sets) {
				t.Errorf("initialize instructions %q, want DefaultInstructions(%v)", got, tt.sets)
			}
			mustContain(t, got, tt.want...)
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("instructions %q mention %q, a tool not served", got, w)
				}
			}
		})
	}
	t.Run("Options.Instructions overrides", func(t *testing.T) {
		h := start(t, writeTree(t, mixedTree()), func(o *server.Options) { o.ToolSets = []string{"skill"}; o.Instructions = "Custom." })
		if got := h.session.InitializeResult().Instructions; got != "Custom." {
			t.Errorf("got %q, want Custom.", got)
		}
	})
}
