package index

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestProblems seeds two roots with one problem of each kind and checks the
// whole sorted list.
func TestProblems(t *testing.T) {
	t.Parallel()
	first := writeTree(t, map[string]string{
		"broken.md": "---\ndescription: d\nkeywords: [a\n---\n",
		"nokw.md":   "---\ndescription: d\n---\n",
		"git/SKILL.md": "---\nname: Git\ndescription: d\n" +
			"scripts:\n  - file: scripts/run.sh\n    execution: server\n---\n",
		"git/scripts/run.sh": "echo",
		"git/sub/SKILL.md":   agentMD("sub", "d", "", ""),
		"ui/x.md": "---\ndescription: d\nkeywords: [k]\ntags: [a]\n" +
			"assets:\n  - file: present.txt\n  - file: missing.css\n  - file: ../escape.txt\n" +
			"scripts:\n  - gone.sh\n---\n",
		"ui/x/present.txt": "here",
		"ui/nodir.md":      skillMD("d", "assets:\n  - a.txt\n", ""),
		"SKILL.md":         agentMD("top", "d", "", ""),
	})
	second := writeTree(t, map[string]string{
		"ui/x.md":        skillMD("shadowed", "", ""),
		"other/SKILL.md": agentMD("git", "d", "", ""),
	})
	missing := filepath.Join(t.TempDir(), "missing")
	sn, _, _ := buildRoots(t, Root{Dir: first, Source: "project"}, Root{Dir: missing, Source: "x"}, Root{Dir: second, Source: "global"})
	want := []Problem{
		{File: "SKILL.md", Root: first, Line: 1, Severity: SeverityError,
			Message: "skipped: a SKILL.md at the root of a skills directory is not a skill: put it in a folder named after the skill"},
		{File: "broken.md", Root: first, Line: 2, Severity: SeverityError, // yaml.v3 names the line the flow list is in
			Message: "skipped: parsing frontmatter: yaml: line 1: did not find expected ',' or ']'"},
		{File: "git/SKILL.md", Root: first, Line: 2, Severity: SeverityWarning,
			Message: `name "Git" may hold only lowercase letters a-z, digits and hyphens`},
		{File: "git/SKILL.md", Root: first, Line: 2, Severity: SeverityError,
			Message: `name "Git" must equal the folder name "git"`},
		{File: "nokw.md", Root: first, Line: 1, Severity: SeverityWarning,
			Message: "not a skill (Markdown outside the skill folders of an Agent Skills collection): keywords must be a non-empty list"},
		{File: "ui/nodir.md", Root: first, Line: 5, Severity: SeverityWarning,
			Message: `declared asset "a.txt" is ignored: the resource directory ui/nodir/ does not exist`},
		{File: "ui/x.md", Root: first, Line: 4, Severity: SeverityWarning,
			Message: `unknown frontmatter key "tags"`},
		{File: "ui/x.md", Root: first, Line: 7, Severity: SeverityWarning,
			Message: `declared asset "missing.css" is missing on disk`},
		{File: "ui/x.md", Root: first, Line: 8, Severity: SeverityError,
			Message: `skipped asset: file path "../escape.txt" climbs out with '..': path traversal`},
		{File: "ui/x.md", Root: first, Line: 10, Severity: SeverityWarning,
			Message: `declared script "gone.sh" is missing on disk`},
		{File: "other/SKILL.md", Root: second, Line: 1, Severity: SeverityError,
			Message: `name collision: "git" has a name differing only in case from ` + filepath.Join(first, "git", "SKILL.md") +
				`; the bare name "git" loads git; this one is reached by its path other`},
		{File: "other/SKILL.md", Root: second, Line: 2, Severity: SeverityError,
			Message: `name "git" must equal the folder name "other"`},
		{File: "ui/x.md", Root: second, Line: 1, Severity: SeverityWarning,
			Message: "shadowed: skill ui/x already comes from " + filepath.Join(first, "ui", "x.md")},
	}
	got := sn.Problems()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:")
		for _, p := range got {
			t.Errorf("  %+v", p)
		}
		t.Errorf("want:")
		for _, p := range want {
			t.Errorf("  %+v", p)
		}
	}
	if _, ok := sn.Get("git"); !ok {
		t.Errorf("git: want it served despite its rule break")
	}
}

func TestKeyLine(t *testing.T) {
	t.Parallel()
	doc := "\xEF\xBB\xBF---\r\n" + // 1
		"name: x\r\n" + // 2
		"description: |\r\n" + // 3
		"  name: not a key\r\n" + // 4
		"assets:\r\n" + // 5
		"  - file: a.txt\r\n" + // 6
		"  # comment\r\n" + // 7
		"  - b.txt\r\n" + // 8
		"scripts: [run.sh]\r\n" + // 9
		"---\r\n" + // 10
		"keywords: after the block\r\n" // 11
	tests := []struct {
		name, key, value string
		want             int
	}{
		{"first key after BOM", "name", "", 2},
		{"indented text is not a key", "description", "", 3},
		{"list entry", "assets", "a.txt", 6},
		{"entry after a comment", "assets", "b.txt", 8},
		{"entry not found falls back to the key", "assets", "c.txt", 5},
		{"flow list on the key's line", "scripts", "run.sh", 9},
		{"key after the block is not found", "keywords", "", 1},
		{"absent key", "license", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := keyLineFrom([]byte(doc), tt.key, tt.value); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
	if got := keyLine([]byte("no frontmatter"), "name"); got != 1 {
		t.Errorf("no block: got %d, want 1", got)
	}
}
