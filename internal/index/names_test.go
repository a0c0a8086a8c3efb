package index

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestByName covers files 002 §2 and 003 §4: lookup is trimmed and
// case-insensitive; Agent Skills answer to their name, tree skills to their path.
func TestByName(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"git/SKILL.md":         agentMD("git", "Git deployment workflow skill", "", "\n# Git Deployment GitOps\n"),
		"mcp-builder/SKILL.md": agentMD("mcp-builder", "MCP server development guide", "", ""),
		"db/postgres/SKILL.md": agentMD("postgres", "PostgreSQL database operations", "", ""),
		"ui/react/auth.md":     skillMD("auth", "", ""),
		"_root.md":             skillMD("root", "", ""),
	})
	sn, _ := mustBuild(t, root)
	tests := []struct {
		name, lookup, wantPath string // wantPath "" when not found
	}{
		{"exact", "git", "git"},
		{"Git matches git", "Git", "git"},
		{"MCP-Builder matches mcp-builder", "MCP-Builder", "mcp-builder"},
		{"POSTGRES matches postgres by name, not folder", "POSTGRES", "db/postgres"},
		{"surrounding spaces trimmed", "  git\t", "git"},
		{"tree skill by path", "UI/React/Auth", "ui/react/auth"},
		{"tree root by path", "_root", "_root"},
		{"an Agent Skill is found by its path too", "db/postgres", "db/postgres"},
		{"a path in another case", "DB/Postgres", "db/postgres"},
		{"unknown", "nonexistent", ""},
		{"empty", "", ""},
		{"traversal is just an unknown name", "../../../etc/passwd", ""},
		{"dot path", ".ssh/id_rsa", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := sn.ByName(tt.lookup)
			if tt.wantPath == "" {
				if ok {
					t.Errorf("got %s, want not found", s.Path)
				}
				return
			}
			if !ok {
				t.Fatalf("got not found, want %s", tt.wantPath)
			}
			if s.Path != tt.wantPath {
				t.Errorf("got %s, want %s", s.Path, tt.wantPath)
			}
		})
	}
	want := []string{"_root", "git", "mcp-builder", "postgres", "ui/react/auth"}
	if got := sn.Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names: got %q, want %q", got, want)
	}
}

// TestByNameLoadsSkill covers file 002's success response: a found skill gives
// its name, its base directory (absolute) and its SKILL.md (file 003: filePath
// ends with /SKILL.md, baseDirectory absolute).
func TestByNameLoadsSkill(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"git/SKILL.md": agentMD("git", "Git deployment workflow skill", "", "\n# Git Deployment GitOps\n\n## Overview\n"),
	})
	sn, _, _ := buildRoots(t, Root{Dir: root, Source: "global"})
	s, ok := sn.ByName("Git")
	if !ok {
		t.Fatal("ByName(Git): not found")
	}
	if s.Name != "git" || s.Source != "global" {
		t.Errorf("got name %q source %q, want git global", s.Name, s.Source)
	}
	if !filepath.IsAbs(s.ResourceDir) || s.ResourceDir != filepath.Join(root, "git") {
		t.Errorf("base directory: got %q, want %q", s.ResourceDir, filepath.Join(root, "git"))
	}
	if !strings.HasSuffix(s.AbsPath, "/SKILL.md") || s.AbsPath != filepath.Join(root, "git", "SKILL.md") {
		t.Errorf("file: got %q, want %s", s.AbsPath, filepath.Join(root, "git", "SKILL.md"))
	}
	data, err := sn.ReadFile(s, "SKILL.md", 0)
	if err != nil {
		t.Fatalf("ReadFile(SKILL.md): %v", err)
	}
	if !strings.HasPrefix(string(data), "---\nname: git\n") || !strings.HasSuffix(string(data), mustBody(t, sn, s)) {
		t.Errorf("got %q, want the whole file", data)
	}
}

// TestByNameAcrossFormats: a tree path equal to an Agent Skills name. Within
// one root the Agent Skill keeps the name; the tree skill stays served,
// reachable by Get, and the collision is reported.
func TestByNameAcrossFormats(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"tools/git/SKILL.md": agentMD("git", "agent git", "", ""),
		"git.md":             skillMD("tree git", "", ""),
	})
	sn, log := mustBuild(t, root)
	if s, ok := sn.ByName("git"); !ok || s.Path != "tools/git" {
		t.Errorf("ByName(git): got %v, want tools/git", s)
	}
	if _, ok := sn.Get("git"); !ok {
		t.Errorf("Get(git): want the tree skill still served")
	}
	if warns := warnLines(log); len(warns) != 1 || !strings.Contains(warns[0], "name collision") || !strings.Contains(warns[0], "tools/git/SKILL.md") {
		t.Errorf("got warnings %q, want one about the name clash", warns)
	}
	if got, want := sn.Names(), []string{"git"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names: got %q, want %q", got, want)
	}
}

func TestByNameEmptySnapshot(t *testing.T) {
	t.Parallel()
	sn := New(Options{Root: t.TempDir()}).Snapshot()
	if _, ok := sn.ByName("git"); ok {
		t.Errorf("ByName on an empty snapshot: found, want not found")
	}
	if got := sn.Names(); len(got) != 0 {
		t.Errorf("Names: got %q, want none", got)
	}
	if got := sn.Problems(); len(got) != 0 {
		t.Errorf("Problems: got %+v, want none", got)
	}
}
