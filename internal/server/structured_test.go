package server_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// outputSchemas lists the tools of a session with their resolved output
// schemas, failing on a tool that declares none or an input schema that
// accepts undeclared arguments.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range res.Tools {
		in, _ := json.Marshal(tool.InputSchema)
		var inS struct {
			AdditionalProperties *bool `json:"additionalProperties"`
		}
		if err := json.Unmarshal(in, &inS); err != nil || inS.AdditionalProperties == nil || *inS.AdditionalProperties {
			t.Errorf("%s: input schema %s does not say additionalProperties: false", tool.Name, in)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema %s: %v", tool.Name, b, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

// checkStructured calls a tool and checks its structuredContent against the
// tool's output schema; for the spec 000 tools the text must be the same JSON
// (list_skills: the array structuredContent holds under "skills").
func checkStructured(t *testing.T, cs *mcp.ClientSession, schemas map[string]*jsonschema.Resolved, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		t.Fatalf("%s(%v): error %s", name, args, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var structured map[string]any
	if err := json.Unmarshal(b, &structured); err != nil {
		t.Fatalf("%s: structuredContent %s is not an object", name, b)
	}
	if err := schemas[name].Validate(structured); err != nil {
		t.Errorf("%s(%v): structuredContent does not match the output schema: %v\n%s", name, args, err, b)
	}
	var fromText any
	switch name {
	case "skill", "skills_list", "skills_search", "skills_show":
		return structured // their text is a summary for people
	case "list_skills":
		var tree []any
		if err := json.Unmarshal([]byte(text), &tree); err != nil {
			t.Fatalf("list_skills: text is not the array of spec 000: %v", err)
		}
		fromText = map[string]any{"skills": tree}
	default:
		if err := json.Unmarshal([]byte(text), &fromText); err != nil {
			t.Fatalf("%s: text is not JSON: %v", name, err)
		}
	}
	if !reflect.DeepEqual(fromText, any(structured)) {
		t.Errorf("%s: structuredContent differs from the text:\n%s\n%s", name, b, text)
	}
	return structured
}

// TestStructuredResults: every tool declares an output schema, and its
// answers, in each of their shapes, carry structuredContent valid against it.
func TestStructuredResults(t *testing.T) {
	t.Parallel()
	files := mixedTree()
	for k, v := range scriptTree() {
		files[k] = v
	}
	h := start(t, writeTree(t, files), func(o *server.Options) {
		o.ToolSets = []string{"core", "skill", "sk"}
		o.Runners = shellRunners(t, o.Config)
	})
	schemas := outputSchemas(t, h.session)
	if len(schemas) != 10 {
		t.Errorf("got %d tools with output schemas, want 10", len(schemas))
	}
	calls := []struct {
		tool string
		args map[string]any
		key  string // a field the answer must have
	}{
		{"get_skill", map[string]any{"context": "jwt middleware for the api"}, "content"},
		{"get_skill", map[string]any{"context": "quantum knitting"}, "no_match"},
		{"get_skill", map[string]any{"context": "auth"}, "candidates"},
		{"get_skill", map[string]any{"skill_path": "api/auth"}, "content"},
		{"list_skills", map[string]any{}, "skills"},
		{"list_skills", map[string]any{"path": "ui"}, "skills"},
		{"get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "AuthProvider.tsx"}, "content"},
		{"get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "flow.png"}, "content_base64"},
		{"run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh"}, "exit_code"},
		{"report_usage", map[string]any{"skill_path": "api/auth", "useful": true}, "recorded"},
		{"refresh_skills", nil, "skills_reindexed"},
		{"skill", map[string]any{"name": "git"}, "content"},
		{"skills_list", map[string]any{}, "skills"},
		{"skills_search", map[string]any{"query": "git"}, "results"},
		{"skills_show", map[string]any{"name": "git"}, "body"},
	}
	for _, c := range calls {
		out := checkStructured(t, h.session, schemas, c.tool, c.args)
		if _, ok := out[c.key]; !ok {
			t.Errorf("%s(%v): structuredContent has no %q: %v", c.tool, c.args, c.key, out)
		}
	}
}

// TestArgumentsAsUsersExpect: get_skill by skill_path alone, run_script
// without args, and every undeclared argument refused by name.
func TestArgumentsAsUsersExpect(t *testing.T) {
	t.Parallel()
	files := specTree()
	for k, v := range scriptTree() {
		files[k] = v
	}
	h := start(t, writeTree(t, files), func(o *server.Options) {
		o.ToolSets = []string{"core", "skill", "sk"}
		o.Runners = shellRunners(t, o.Config)
	})
	if got := h.callJSON(t, "get_skill", map[string]any{"skill_path": "ui/react/auth"}); got["skill_path"] != "ui/react/auth" {
		t.Errorf("get_skill by skill_path: got %v", got)
	}
	if got := h.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh"}); got["success"] != true {
		t.Errorf("run_script without args: got %v", got)
	}
	mustContain(t, h.callError(t, "get_skill", map[string]any{}), "context", "skill_path")
	unknown := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"get_skill", map[string]any{"context": "auth", "query": "x"}, []string{"unknown argument(s): query", "allowed: context, skill_path"}},
		{"list_skills", map[string]any{"paht": "ui"}, []string{"unknown argument(s): paht"}},
		{"get_asset", map[string]any{"skill_path": "ui/react/auth", "file": "AuthProvider.tsx", "mode": "raw"}, []string{"unknown argument(s): mode"}},
		{"run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh", "env": "x"}, []string{"unknown argument(s): env"}},
		{"report_usage", map[string]any{"skill_path": "a", "useful": true, "rating": 5}, []string{"unknown argument(s): rating"}},
		{"refresh_skills", map[string]any{"force": true}, []string{"unknown argument(s): force", "takes none"}},
		{"skill", map[string]any{"name": "git", "x": 1}, []string{"unknown argument(s): x"}},
		{"skills_list", map[string]any{"limit": 1}, []string{"limit"}},
		{"get_skill", map[string]any{"context": 3}, []string{`argument "context" must be a string`}},
		{"report_usage", map[string]any{"skill_path": "a", "useful": "yes"}, []string{`argument "useful" must be a boolean`}},
	}
	for _, u := range unknown {
		mustContain(t, h.callError(t, u.tool, u.args), u.want...)
	}
}

// TestRefusedToolsNotListed: run_script is not listed where every call of it
// is refused (scripts.enabled false), and a call still says why.
func TestRefusedToolsNotListed(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, scriptTree()), func(o *server.Options) { o.Config.Scripts.Enabled = false })
	res, err := h.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "run_script" {
			t.Error("scripts.enabled false: run_script is listed")
		}
	}
	mustContain(t, h.callError(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh"}), "scripts.enabled")
}

// TestRunScriptListedOverHTTPOnlyWhenAllowed: over HTTP run_script is listed
// with scripts.allow_remote true, in both modes, and its answers are structured.
func TestRunScriptListedOverHTTPOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		for _, allow := range []bool{false, true} {
			ts := httpServer(t, scriptTree(), func(o *server.Options) {
				o.Config.Scripts.AllowRemote = allow
				o.Runners = shellRunners(t, o.Config)
			}, httpguard.Options{Stateless: stateless})
			cs, err := connectHTTP(t, ts, "")
			if err != nil {
				t.Fatal(err)
			}
			schemas := outputSchemas(t, cs)
			if _, listed := schemas["run_script"]; listed != allow {
				t.Errorf("stateless %v, allow_remote %v: run_script listed %v", stateless, allow, listed)
			}
			if allow {
				checkStructured(t, cs, schemas, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh"})
			}
			checkStructured(t, cs, schemas, "list_skills", nil)
		}
	}
}

// The large answers keep their pre-encoded path and stay structured.
func TestLargeListSkillsStructured(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 400 {
		files["big/s"+strings.Repeat("x", 3)+string(rune('a'+i%26))+"/"+string(rune('a'+i/26))+".md"] =
			"---\ndescription: " + strings.Repeat("a long description ", 10) + "\nkeywords: [k]\n---\nbody\n"
	}
	h := start(t, writeTree(t, files), nil)
	checkStructured(t, h.session, outputSchemas(t, h.session), "list_skills", nil)
}
