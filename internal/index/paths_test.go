package index

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestSkillPath covers the table of spec 000 §4.3.
func TestSkillPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ file, want string }{
		{"_root.md", "_root"},
		{"ui/_index.md", "ui/_index"},
		{"ui/react/_index.md", "ui/react/_index"},
		{"ui/react/auth.md", "ui/react/auth"},
		{"no-inherit.md", "no-inherit"},
		{`ui\react\auth.md`, "ui/react/auth"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := skillPath(tt.file); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSkillName(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"_root", "_root"},
		{"ui/_index", "ui"},
		{"ui/react/_index", "react"},
		{"ui/react/auth", "auth"},
		{"no-inherit", "no-inherit"},
		{"_index", "_index"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := skillName(tt.path); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestParentResolution covers the table of spec 000 §4.4 (the resolved
// parent) and the walk up through missing intermediate parents.
func TestParentResolution(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		path       string
		existing   []string
		wantParent string // "" for none
	}{
		{name: "root", path: "_root", existing: []string{"_root"}, wantParent: ""},
		{name: "top index", path: "ui/_index", existing: []string{"_root"}, wantParent: "_root"},
		{name: "nested index", path: "ui/react/_index", existing: []string{"_root", "ui/_index"}, wantParent: "ui/_index"},
		{name: "leaf", path: "ui/react/auth", existing: []string{"_root", "ui/_index", "ui/react/_index"}, wantParent: "ui/react/_index"},
		{name: "top leaf", path: "no-inherit", existing: []string{"_root"}, wantParent: "_root"},
		{name: "lone top index", path: "_index", existing: []string{"_root"}, wantParent: "_root"},
		{name: "walk up to grandparent index", path: "data/sql/query", existing: []string{"_root", "data/_index"}, wantParent: "data/_index"},
		{name: "walk up to root", path: "data/sql/query", existing: []string{"_root"}, wantParent: "_root"},
		{name: "walk up to nothing", path: "data/sql/query", existing: nil, wantParent: ""},
		{name: "index walks past missing parent index", path: "a/b/c/_index", existing: []string{"a/_index"}, wantParent: "a/_index"},
		{name: "leaf without root", path: "solo", existing: nil, wantParent: ""},
		{name: "an Agent Skill is never a parent", path: "tools/x", existing: []string{"_root"}, wantParent: "_root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byPath := map[string]*core.Skill{"tools/_index": {Path: "tools/_index", Format: core.FormatAgentSkill}}
			for _, p := range tt.existing {
				byPath[p] = &core.Skill{Path: p, Format: core.FormatTree}
			}
			got := resolveParent(tt.path, byPath)
			if got != tt.wantParent {
				t.Errorf("resolved: got %q, want %q", got, tt.wantParent)
			}
		})
	}
}

// TestParentResolutionOnDisk checks that Rebuild resolves parents on a real tree.
func TestParentResolutionOnDisk(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":           skillMD("root", "", ""),
		"ui/_index.md":       skillMD("ui", "", ""),
		"ui/react/_index.md": skillMD("react", "", ""),
		"ui/react/auth.md":   skillMD("auth", "", ""),
		"no-inherit.md":      skillMD("solo", "inherit: false\n", ""),
		"data/_index.md":     skillMD("data", "", ""),
		"data/sql/query.md":  skillMD("query", "", ""),
	})
	sn, _ := mustBuild(t, root)
	want := map[string]string{
		"_root":           "",
		"ui/_index":       "_root",
		"ui/react/_index": "ui/_index",
		"ui/react/auth":   "ui/react/_index",
		"no-inherit":      "_root",
		"data/_index":     "_root",
		"data/sql/query":  "data/_index",
	}
	for path, parent := range want {
		if got := mustGet(t, sn, path).Parent; got != parent {
			t.Errorf("%s: parent got %q, want %q", path, got, parent)
		}
	}
}
