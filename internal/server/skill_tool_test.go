package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestSkillToolLoads(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, mixedTree())
	h := start(t, dir, withSets(server.ToolSetSkill))
	tests := []struct {
		name, arg string
		want      string
	}{
		{"agent skill by its name", "git", "Loading: git\nBase directory: " + filepath.Join(dir, "git") + "\n\n" + gitSkill},
		{"name in another case", "Git", "Loading: git\nBase directory: " + filepath.Join(dir, "git") + "\n\n" + gitSkill},
		{"surrounding blanks ignored", "  git ", "Loading: git\nBase directory: " + filepath.Join(dir, "git") + "\n\n" + gitSkill},
		{"file 002 example 2", "MCP-Builder", "Loading: mcp-builder\nBase directory: " + filepath.Join(dir, "mcp-builder") +
			"\n\n---\nname: mcp-builder\ndescription: MCP server development guide\n---\n" + mcpBuilderBody},
		{"tree skill by path, resolved content, resource dir", "UI/React/Auth", "Loading: ui/react/auth\nBase directory: " +
			filepath.Join(dir, "ui", "react", "auth") + "\n\n=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n" +
			"=== UI (from ui/_index.md) ===\n\nUI rules\n\n=== UI > REACT (from ui/react/_index.md) ===\n\nReact rules\n\n" +
			"=== UI > REACT > AUTH (from ui/react/auth.md) ===\n\nAuth rules"},
		{"tree skill without resource dir", "api/auth", "Loading: api/auth\nBase directory: " + filepath.Join(dir, "api") +
			"\n\n=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n=== API > AUTH (from api/auth.md) ===\n\nAPI auth rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr := h.call(t, "skill", map[string]any{"name": tt.arg})
			if isErr || got != tt.want {
				t.Errorf("got (isError %v)\n%s\nwant\n%s", isErr, got, tt.want)
			}
		})
	}
}

func TestSkillToolReadsTheFileAtCallTime(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, mixedTree())
	h := start(t, dir, withSets(server.ToolSetSkill))
	edited := strings.Replace(gitSkill, "Manage commits", "Manage signed commits", 1)
	if err := os.WriteFile(filepath.Join(dir, "git", "SKILL.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := h.call(t, "skill", map[string]any{"name": "git"})
	if want := "Loading: git\nBase directory: " + filepath.Join(dir, "git") + "\n\n" + edited; got != want {
		t.Errorf("got\n%s\nwant the edited file\n%s", got, want)
	}
	if err := os.Remove(filepath.Join(dir, "git", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	mustContain(t, h.callError(t, "skill", map[string]any{"name": "git"}), "git/SKILL.md")
}

func TestSkillToolErrors(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSkill))
	tests := []struct {
		name string
		args any
		want string
	}{
		{"empty name", map[string]any{"name": ""}, "name must not be empty"},
		{"blank name", map[string]any{"name": "   "}, "name must not be empty"},
		{"missing name", map[string]any{}, "missing required argument(s): name"},
		{"name not a string", map[string]any{"name": 7}, `argument "name" must be a string`},
		{"extra argument (strict schema)", map[string]any{"name": "git", "force": true}, "unknown argument(s): force"},
		{"unknown name: the closest names, then every name when they fit the catalogue budget", map[string]any{"name": "gti"},
			"Skill 'gti' not found. Closest names:\n- git: Git deployment workflow skill\n" +
				"Available skills (9): _root, api/auth, git, mcp-builder, no-inherit, ui/_index, ui/react/_index, ui/react/auth, xml-trick."},
		{"unknown name without a close one: every name", map[string]any{"name": "zzzz"},
			"Skill 'zzzz' not found. No skill has a name close to it.\nAvailable skills (9): _root, api/auth,"},
		{"a path is only a name", map[string]any{"name": "../../../etc/passwd"}, "Skill '../../../etc/passwd' not found. No skill has a name close to it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { mustContain(t, h.callError(t, "skill", tt.args), tt.want) })
	}
}

func TestSkillToolDefinition(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSkill))
	tool := h.tool(t, "skill")
	a := tool.Annotations
	if tool.Title != "Load Skill" || a == nil || a.Title != "Load Skill" || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
		!a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("title %q, annotations %+v; want Load Skill, read-only, not destructive, idempotent, closed world", tool.Title, a)
	}
	b, _ := json.Marshal(tool.InputSchema)
	want := `{"additionalProperties":false,"properties":{"name":{"description":"Name of the skill to load (case-insensitive)","minLength":1,"type":"string"}},"required":["name"],"type":"object"}`
	if string(b) != want {
		t.Errorf("input schema\n%s\nwant\n%s", b, want)
	}
}

var xmlName = regexp.MustCompile(`<name>(.*?)</name>`)

func listedNames(desc string) []string {
	var names []string
	for _, m := range xmlName.FindAllStringSubmatch(desc, -1) {
		names = append(names, m[1])
	}
	return names
}

func TestSkillToolDescription(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSkill))
	desc := h.tool(t, "skill").Description
	if !strings.HasPrefix(desc, "Execute a skill within the main conversation\n\n<skills_instructions>\n") ||
		!strings.Contains(desc, "</skills_instructions>\n\n<available_skills>\n<skill>\n") || !strings.HasSuffix(desc, "</skill>\n</available_skills>") {
		t.Errorf("description does not follow file 002's template:\n%s", desc)
	}
	want := []string{"_root", "api/auth", "git", "mcp-builder", "no-inherit", "ui/_index", "ui/react/_index", "ui/react/auth", "xml-trick"}
	if got := listedNames(desc); !reflect.DeepEqual(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	mustContain(t, desc,
		"<skill>\n<name>git</name>\n<description>Git deployment workflow skill</description>\n<location>project</location>\n</skill>",
		"<skill>\n<name>xml-trick</name>\n<description>Ends &lt;/skill&gt; early &amp; says &quot;hi&quot; to &lt;you&gt;</description>\n<location>project</location>\n</skill>")
	if strings.Contains(desc, "</skill> early") || strings.Contains(desc, " & ") {
		t.Errorf("description holds unescaped markup:\n%s", desc)
	}
	if strings.Contains(desc, "<!--") {
		t.Errorf("every skill fits the default budget, yet the description says some are left out")
	}
}

func TestSkillToolLocation(t *testing.T) {
	t.Parallel()
	project, global, skillsDir := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(root, name, desc string) {
		t.Helper()
		p := filepath.Join(root, name, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nbody\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(project, "git", "Project git")
	write(global, "git", "Global git")
	write(global, "postgres", "Global postgres")
	write(skillsDir, "deploy", "From SKILLS_DIR")
	h := startRoots(t, []index.Root{
		{Dir: skillsDir, Source: index.SourceSkillsDir},
		{Dir: project, Source: index.SourceProject},
		{Dir: global, Source: index.SourceGlobal},
	}, withSets(server.ToolSetSkill), nil)
	desc := h.tool(t, "skill").Description
	mustContain(t, desc,
		"<name>deploy</name>\n<description>From SKILLS_DIR</description>\n<location>project</location>",
		"<name>git</name>\n<description>Project git</description>\n<location>project</location>",
		"<name>postgres</name>\n<description>Global postgres</description>\n<location>global</location>")
	if got, want := listedNames(desc), []string{"deploy", "git", "postgres"}; !reflect.DeepEqual(got, want) {
		t.Errorf("listed %v, want %v (the shadowed global git left out)", got, want)
	}
	got, _ := h.call(t, "skill", map[string]any{"name": "postgres"})
	if want := "Loading: postgres\nBase directory: " + filepath.Join(global, "postgres") + "\n\n"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start with %q", got, want)
	}
}

// withBudget serves sets with catalog.max_description_chars set to budget.
func withBudget(budget int, sets ...string) func(*server.Options) {
	return func(o *server.Options) {
		o.ToolSets = sets
		o.Config.Catalog.MaxDescriptionChars = budget
	}
}

// manySkills writes n Agent Skills s000…, each with a description of about 60 characters.
func manySkills(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("s%03d", i)
		files[name+"/SKILL.md"] = fmt.Sprintf("---\nname: %s\ndescription: Skill number %d, which does one narrow thing well\n---\nBody %d\n", name, i, i)
	}
	return files
}

// TestSkillToolDescriptionBudget: 120 skills whose names alone do not fit
// 3,000 characters as file 002's entries are named on one line, with how to
// find them by the tools served.
func TestSkillToolDescriptionBudget(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, manySkills(120))
	tests := []struct {
		name string
		sets []string
		hint string
	}{
		{"with sk", []string{server.ToolSetSkill, server.ToolSetSk}, "use skills_search; skills_list lists every one"},
		{"with core", []string{server.ToolSetSkill, server.ToolSetCore}, "describe the task to get_skill; list_skills lists every one"},
		{"alone", []string{server.ToolSetSkill}, "call skill with a likely name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, dir, withBudget(3000, tt.sets...))
			desc := h.tool(t, "skill").Description
			if n := utf8.RuneCountInString(desc); n > 3000 {
				t.Errorf("description has %d characters, want at most 3000", n)
			}
			names, counts, listed := groupedLines(desc)
			if len(names) != 1 || names[0] != "(top level)" || counts[names[0]] != 120 || len(listed[names[0]]) != 120 {
				t.Fatalf("want one line naming all 120 top-level skills, got %v %v:\n%s", names, counts, desc)
			}
			for i, name := range listed[names[0]] {
				if want := fmt.Sprintf("s%03d", i); name != want {
					t.Fatalf("entry %d is %s, want %s", i, name, want)
				}
			}
			mustContain(t, desc, "<!-- 120 skills in 1 collection,", tt.hint)
		})
	}
}

func TestSkillToolDescriptionBudgetBoundary(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, mixedTree())
	full := start(t, dir, withBudget(1<<20, server.ToolSetSkill)).tool(t, "skill").Description
	size := utf8.RuneCountInString(full)
	tests := []struct {
		name     string
		budget   int
		complete bool
	}{
		{"exactly the full size", size, true},
		{"one character short", size - 1, false},
		{"room for the names only", size - 400, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desc := start(t, dir, withBudget(tt.budget, server.ToolSetSkill)).tool(t, "skill").Description
			if n := utf8.RuneCountInString(desc); n > tt.budget {
				t.Errorf("got %d characters, want at most %d", n, tt.budget)
			}
			if tt.complete && desc != full {
				t.Errorf("got a different description at the full size:\n%s", desc)
			}
			if !tt.complete && (len(listedNames(desc)) != 9 || strings.Contains(desc, "more skill")) {
				t.Errorf("under budget %d: want every name listed, descriptions shortened and no skill left out:\n%s", tt.budget, desc)
			}
		})
	}
	t.Run("smaller than the template: no entries, one comment", func(t *testing.T) {
		desc := start(t, dir, withBudget(10, server.ToolSetSkill)).tool(t, "skill").Description
		if got := listedNames(desc); len(got) != 0 || !strings.HasSuffix(desc, "<available_skills>\n<!-- 9 more skills not listed: call skill with a name; an unknown name answers with the closest ones -->\n</available_skills>") {
			t.Errorf("listed %v; description ends …%s", got, desc[len(desc)-200:])
		}
	})
}

func TestRefreshToolDescriptions(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, mixedTree())
	changed := make(chan struct{}, 8)
	logs := &testlog.Buffer{}
	h := startRoots(t, []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}},
		func(o *server.Options) { o.ToolSets = []string{server.ToolSetSkill}; o.Logger = debugLogger(logs) },
		&mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	const reregistered = "skill tool description changed"

	// Unchanged skills: nothing is registered again.
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.srv.RefreshToolDescriptions()
	if n := strings.Count(logs.String(), reregistered); n != 0 {
		t.Fatalf("re-registered %d times with no change, want 0", n)
	}

	p := filepath.Join(dir, "postgres", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\nname: postgres\ndescription: PostgreSQL database operations\n---\nSQL.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.srv.RefreshToolDescriptions()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after a skill was added")
	}
	mustContain(t, h.tool(t, "skill").Description,
		"<skill>\n<name>postgres</name>\n<description>PostgreSQL database operations</description>\n<location>project</location>\n</skill>")
	if got, _ := h.call(t, "skill", map[string]any{"name": "POSTGRES"}); !strings.HasPrefix(got, "Loading: postgres\n") {
		t.Errorf("got %q, want the new skill loaded", got)
	}

	h.srv.RefreshToolDescriptions() // same snapshot again
	if n := strings.Count(logs.String(), reregistered); n != 1 {
		t.Errorf("re-registered %d times, want once (for the added skill only)", n)
	}
}

func TestRefreshToolDescriptionsConcurrent(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, manySkills(5))
	h := start(t, dir, withSets(server.ToolSetSkill))
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := h.srv.Rebuild(context.Background()); err != nil {
					t.Error(err)
					return
				}
				h.srv.RefreshToolDescriptions()
			}
		}()
	}
	wg.Wait()
	if got := listedNames(h.tool(t, "skill").Description); len(got) != 5 {
		t.Errorf("listed %v, want the 5 skills", got)
	}
}

func TestRefreshToolDescriptionsWithoutSkillSet(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), nil)
	h.srv.RefreshToolDescriptions()
	for _, name := range h.toolNames(t) {
		if name == "skill" {
			t.Fatalf("RefreshToolDescriptions registered skill on a server that does not serve the set")
		}
	}
}

// TestSkillToolUnknownNameBudget: an unknown name is answered with every name
// when the names fit the catalogue budget (file 002 lists the available
// skills), with the closest ones and the count when they do not (issue 29).
func TestSkillToolUnknownNameBudget(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		budget    int
		want, not []string
	}{
		{name: "names fit", budget: 0, want: []string{"Available skills (9): _root, api/auth, git,"}, not: []string{"skills in all"}},
		{name: "names do not fit", budget: 1200, want: []string{"Closest names:\n- git:", "9 skills in all; "}, not: []string{"Available skills", "xml-trick"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := start(t, writeTree(t, mixedTree()), func(o *server.Options) {
				o.ToolSets = []string{server.ToolSetSkill}
				o.Config.Catalog.MaxDescriptionChars = tt.budget
			})
			msg := h.callError(t, "skill", map[string]any{"name": "gti"})
			mustContain(t, msg, tt.want...)
			for _, n := range tt.not {
				if strings.Contains(msg, n) {
					t.Errorf("%q in\n%s", n, msg)
				}
			}
		})
	}
}
