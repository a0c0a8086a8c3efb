package skillscmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStringsStayStrings (issue 15, item 4): frontmatter values the formats
// define as text are served as written, through skills/list's metadata, the
// skill tool and skills_list; a quoted "null" or "~" is text; merge keys are
// merged; keys are their text (`00:` and `0:`, `on:` and `yes:` are four
// keys). validate says how to quote what YAML 1.1 readers read otherwise.
func TestStringsStayStrings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"yes/SKILL.md":     "---\nname: yes\ndescription: yes\nlicense: 2024-01-01\nmetadata:\n  version: 1.10\n  released: 2024-01-01\n---\nYes.\n",
		"version/SKILL.md": "---\nname: version\ndescription: 1.10\n---\nVersion.\n",
		"null/SKILL.md":    "---\nname: \"null\"\ndescription: \"~\" # a tilde\n---\nNull.\n",
		"merge/SKILL.md":   "---\nbase: &base\n  author: me\n  team: tools\nname: merge\ndescription: Merged metadata.\nmetadata:\n  <<: *base\n  team: core\n---\nMerge.\n",
		"keys/SKILL.md":    "---\nname: keys\ndescription: Keys as written.\nmetadata:\n  00: zero-zero\n  0: zero\n  on: on\n  yes: yes\n---\nKeys.\n",
	})
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "strings-test", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*extListParams, *extListResult](client, "skills/list"); err != nil {
		t.Fatal(err)
	}
	cmd := serverCmd(t, "SKILLS_DIR="+dir, "SKILLS_TOOLS=skill,sk")
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := mcp.CallCustomMethod[*extListParams, *extListResult](ctx, cs, "skills/list", &extListParams{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range res.Skills {
		got[s.URI] = string(s.Frontmatter)
	}
	want := map[string]string{
		"skill://yes/SKILL.md":     `{"name":"yes","description":"yes","license":"2024-01-01","metadata":{"version":"1.10","released":"2024-01-01"}}`,
		"skill://version/SKILL.md": `{"name":"version","description":"1.10"}`,
		"skill://null/SKILL.md":    `{"name":"null","description":"~"}`,
		"skill://merge/SKILL.md":   `{"base":{"author":"me","team":"tools"},"name":"merge","description":"Merged metadata.","metadata":{"team":"core","author":"me"}}`,
		"skill://keys/SKILL.md":    `{"name":"keys","description":"Keys as written.","metadata":{"00":"zero-zero","0":"zero","on":"on","yes":"yes"}}`,
	}
	for uri, w := range want {
		if got[uri] != w {
			t.Errorf("%s frontmatter:\n got %s\nwant %s", uri, got[uri], w)
		}
	}
	call := func(name string, args map[string]any) string {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || r.IsError {
			t.Fatalf("%s: %v %+v", name, err, r)
		}
		b, _ := json.Marshal(r.StructuredContent)
		return string(b)
	}
	list := call("skills_list", map[string]any{})
	for _, w := range []string{`"description":"yes"`, `"description":"1.10"`, `"description":"~"`, `"name":"null"`} {
		if !strings.Contains(list, w) {
			t.Errorf("skills_list lacks %s:\n%s", w, list)
		}
	}
	out, _ := validateDir(t, dir)
	for _, w := range []string{
		`yes/SKILL.md:3: warning: description: YAML 1.1 readers (PyYAML, the official SDKs) read yes as the boolean true, not as text; quote it: "yes"`,
		`version/SKILL.md:3: warning: description: YAML 1.1 readers (PyYAML, the official SDKs) read 1.10 as the number 1.1, not as text; quote it: "1.10"`,
		`keys/SKILL.md:5: warning: key 00:`,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("validate lacks %q:\n%s", w, out)
		}
	}
}
