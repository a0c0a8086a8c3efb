package skillscmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listedPaths calls skills_list and returns every skillPath, sorted.
func (s *treeServer) listedPaths(t *testing.T) []string {
	t.Helper()
	res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: "skills_list", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("skills_list: %v %+v", err, res)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Skills []struct {
			SkillPath string `json:"skillPath"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	for _, sk := range out.Skills {
		paths = append(paths, sk.SkillPath)
	}
	sort.Strings(paths)
	return paths
}

// TestLayoutsPeopleUse (issue 15, item 2) serves the layouts of real
// collections: a skill folder installed as a symlink to a checkout elsewhere,
// a SKILL.md symlink, hidden folders (`skills/.curated/`), mirror trees of
// links (`.codex/`, `.gemini/`), dangling links, a loop and a link to /,
// VCS and node_modules folders, a SKILL.md nested in another skill's folder,
// and the Markdown of a plugin that is not a skill. Every skill is served once,
// reads stay in the resolved folder, and what is left out is counted in a few
// log lines and listed by validate.
func TestLayoutsPeopleUse(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{
		"shared-skill/SKILL.md":            agentSkill("shared-skill", "A skill installed by a symlink.", "Shared body.\n"),
		"shared-skill/references/guide.md": "# Guide\n",
		"secret.txt":                       "top secret",
		"other/SKILL.md":                   agentSkill("filelinked", "A skill whose SKILL.md is a symlink.", "Linked body.\n"),
		"other/notes.txt":                  "notes",
	})
	s, dir := serveTree(t, map[string]string{
		"shared-skill":                                 "->" + filepath.Join(outside, "shared-skill"),
		"filelinked/SKILL.md":                          "->" + filepath.Join(outside, "other", "SKILL.md"),
		"skills/.curated/curated-one/SKILL.md":         agentSkill("curated-one", "A curated skill under a hidden folder.", "Curated.\n"),
		"skills/.system/sys-one/SKILL.md":              agentSkill("sys-one", "A system skill under a hidden folder.", "System.\n"),
		".git/x/SKILL.md":                              agentSkill("x", "Never: VCS metadata.", ""),
		"node_modules/pkg/SKILL.md":                    agentSkill("pkg", "Never: a package.", ""),
		".codex/skills/curated-one":                    "->../../skills/.curated/curated-one",
		".gemini/skills/sys-one/SKILL.md":              "->../../../skills/.system/sys-one/SKILL.md",
		"dangling":                                     "->nowhere",
		"loop":                                         "->.",
		"slash":                                        "->/",
		"parent/SKILL.md":                              agentSkill("parent", "A skill holding another.", "Parent.\n"),
		"parent/child/SKILL.md":                        agentSkill("child", "A skill nested in another's folder.", "Child.\n"),
		"parent/docs/guide.md":                         "---\ndescription: a resource, not a skill\nkeywords: [x]\n---\n",
		"README.md":                                    "# A collection\n",
		"plugins/tools/commands/do.md":                 "---\ndescription: A slash command.\nkeywords: [do]\n---\nDo it.\n",
		"plugins/tools/.claude-plugin/plugin.json":     `{"name": "tools"}`,
		"plugins/tools/agents/helper.md":               "---\nname: helper\ndescription: A subagent.\n---\nHelp.\n",
		"plugins/tools/skills/tool-skill/SKILL.md":     agentSkill("tool-skill", "A plugin's skill.", "Tool.\n"),
		"plugins/tools/skills/tool-skill/REFERENCE.md": "# more",
	})
	want := []string{"filelinked", "parent", "parent/child", "plugins/tools/skills/tool-skill",
		"shared-skill", "skills/.curated/curated-one", "skills/.system/sys-one"}
	if got := s.listedPaths(t); !reflect.DeepEqual(got, want) {
		t.Errorf("skills_list paths: got %q, want %q", got, want)
	}
	for _, tt := range []struct{ name, want string }{
		{"shared-skill", "Shared body."},
		{"filelinked", "Linked body."},
		{"curated-one", "Curated."},
		{"child", "Child."},
		{"parent/child", "Child."},
	} {
		if text, isErr := s.call(t, "skill", map[string]any{"name": tt.name}); isErr || !strings.Contains(text, tt.want) {
			t.Errorf("skill %s: got %q (error %v), want %q", tt.name, text, isErr, tt.want)
		}
	}
	for _, p := range want {
		if text, isErr := s.call(t, "skills_show", map[string]any{"name": p}); isErr {
			t.Errorf("skills_show %s: %s", p, text)
		}
	}
	if text, isErr := s.call(t, "get_asset", map[string]any{"skill_path": "shared-skill", "file": "references/guide.md"}); isErr || !strings.Contains(text, "# Guide") {
		t.Errorf("get_asset through the installed link: got %q (error %v)", text, isErr)
	}
	if text, isErr := s.call(t, "get_asset", map[string]any{"skill_path": "shared-skill", "file": "../secret.txt"}); !isErr || strings.Contains(text, "top secret") {
		t.Errorf("get_asset ../secret.txt: got %q (error %v), want a refusal", text, isErr)
	}
	if text, isErr := s.call(t, "get_asset", map[string]any{"skill_path": "filelinked", "file": "notes.txt"}); isErr || !strings.Contains(text, "notes") {
		t.Errorf("get_asset of the resolved SKILL.md folder: got %q (error %v)", text, isErr)
	}
	// the installed skill's SKILL.md swapped for a link out of its resolved folder: refused
	skillMD := filepath.Join(outside, "shared-skill", "SKILL.md")
	if err := os.Remove(skillMD); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), skillMD); err != nil {
		t.Fatal(err)
	}
	if text, _ := s.call(t, "skill", map[string]any{"name": "shared-skill"}); strings.Contains(text, "top secret") {
		t.Errorf("skill read through a link out of the resolved folder: %s", text)
	}
	s.cs.Close()
	log := s.stderr.String()
	index := 0
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if strings.Contains(line, "skills-mcp.index") {
			index++
		}
	}
	if index > 4 {
		t.Errorf("got %d index lines at start-up, want at most 4:\n%s", index, log)
	}
	for _, w := range []string{"loop: a symlink to", "slash: a symlink to / is not followed",
		"symlinks not followed", "Markdown files outside skill folders are not skills"} {
		if !strings.Contains(log, w) {
			t.Errorf("start-up log lacks %q:\n%s", w, log)
		}
	}
	out, _ := validateDir(t, dir)
	for _, w := range []string{".codex/skills/curated-one:1: warning: not followed: mirror",
		".gemini/skills/sys-one/SKILL.md:1: warning: not followed: mirror", "dangling:1: warning: not followed: dangling",
		"README.md:1: warning: not a skill", "plugins/tools/commands/do.md:1: warning: not a skill"} {
		if !strings.Contains(out, w) {
			t.Errorf("validate lacks %q:\n%s", w, out)
		}
	}
}
