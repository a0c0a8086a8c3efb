package skillsext

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

func TestExtensionPath(t *testing.T) {
	t.Parallel()
	tree := func(path string) *core.Skill { return &core.Skill{Path: path, Format: core.FormatTree} }
	agent := func(path, name string) *core.Skill {
		return &core.Skill{Path: path, Name: name, Format: core.FormatAgentSkill}
	}
	tests := []struct {
		name           string
		skill          *core.Skill
		wantPath, want string
	}{
		{name: "tree leaf", skill: tree("ui/react/auth"), wantPath: "ui/react/auth", want: "auth"},
		{name: "tree category", skill: tree("ui/_index"), wantPath: "ui", want: "ui"},
		{name: "nested tree category", skill: tree("ui/react/_index"), wantPath: "ui/react", want: "react"},
		{name: "_root", skill: tree("_root"), wantPath: "root", want: "root"},
		{name: "top-level _index", skill: tree("_index"), wantPath: "index", want: "index"},
		{name: "top-level tree skill", skill: tree("no-inherit"), wantPath: "no-inherit", want: "no-inherit"},
		{name: "tree name made valid", skill: tree("ui/React_Hooks"), wantPath: "ui/react-hooks", want: "react-hooks"},
		{name: "prefix with reserved characters", skill: tree("my docs/auth"), wantPath: "my-docs/auth", want: "auth"},
		{name: "prefix with unreserved characters kept", skill: tree("Team_A.v2~x/auth"), wantPath: "Team_A.v2~x/auth", want: "auth"},
		{name: "agent skill", skill: agent("git-workflow", "git-workflow"), wantPath: "git-workflow", want: "git-workflow"},
		{name: "agent skill under a prefix", skill: agent("acme/billing/refunds", "refunds"), wantPath: "acme/billing/refunds", want: "refunds"},
		{name: "agent skill in a folder named otherwise", skill: agent("tools/Git", "git"), wantPath: "tools/git", want: "git"},
		{name: "agent skill with an invalid name", skill: agent("tools/pdf", "PDF Tools"), wantPath: "tools/pdf", want: "pdf"},
		{name: "agent skill folder named _index stays", skill: agent("docs/_index", "index"), wantPath: "docs/index", want: "index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, name := extensionPath(tt.skill)
			if path != tt.wantPath || name != tt.want {
				t.Errorf("got %q %q, want %q %q", path, name, tt.wantPath, tt.want)
			}
			if !validSkillName(name) || !strings.HasSuffix("/"+path, "/"+name) {
				t.Errorf("name %q is not a valid name ending path %q", name, path)
			}
			if _, err := url.Parse(skillScheme + path + "/" + skillFile); err != nil {
				t.Errorf("URI does not parse: %v", err)
			}
		})
	}
}

func TestSkillName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"auth", "auth"},
		{"React_Hooks", "react-hooks"},
		{"--a--b--", "a-b"},
		{"_root", "root"},
		{"café", "caf"},
		{"日本語", "skill"},
		{"", "skill"},
		{strings.Repeat("a", 63) + "-b", strings.Repeat("a", 63)},
		{strings.Repeat("ab", 40), strings.Repeat("ab", 32)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := skillName(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEscapeFilePath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"references/FORMS.md", "references/FORMS.md"},
		{"a b/c#d?.md", "a%20b/c%23d%3F.md"},
		{"100%.txt", "100%25.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := escapeFilePath(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzSkillName checks that any segment becomes a valid Agent Skills name,
// that a valid name is kept, and that file paths escape reversibly.
func FuzzSkillName(f *testing.F) {
	f.Add("React_Hooks")
	f.Fuzz(func(t *testing.T, seg string) {
		name := skillName(seg)
		if !validSkillName(name) {
			t.Fatalf("skillName(%q) = %q, not a valid name", seg, name)
		}
		if skillName(name) != name {
			t.Fatalf("skillName(%q) = %q, but skillName of that is %q", seg, name, skillName(name))
		}
		if u := uriSegment(seg); u == "" || strings.ContainsAny(u, "/?#% ") {
			t.Fatalf("uriSegment(%q) = %q, not a safe segment", seg, u)
		}
		escaped := escapeFilePath(seg)
		for i, part := range strings.Split(escaped, "/") {
			back, err := url.PathUnescape(part)
			if err != nil || back != strings.Split(seg, "/")[i] {
				t.Fatalf("escapeFilePath(%q) = %q: segment %d unescapes to %q, %v", seg, escaped, i, back, err)
			}
		}
	})
}

// TestViewCollisions: a skill mapped onto a path already served is not
// served; a file colliding with a SKILL.md, a deeper skill's file or a
// directory is left out.
func TestViewCollisions(t *testing.T) {
	t.Parallel()
	first, second := t.TempDir(), t.TempDir()
	writeFile(t, first, "tools/SKILL.md", "---\nname: tools\ndescription: Agent tools\n---\nAgent.\n")
	writeFile(t, second, "tools/_index.md", "---\ndescription: Tree tools\nkeywords: [tools]\n---\nTree.\n")
	writeFile(t, first, "ui/SKILL.md", "---\nname: ui\ndescription: Agent UI\n---\nAgent.\n")
	writeFile(t, first, "Ui/_index.md", "---\ndescription: Tree UI\nkeywords: [ui]\n---\nTree.\n")
	writeFile(t, first, "Ui/_index/x.txt", "x")
	writeFile(t, first, "docs/_index.md", "---\ndescription: Docs\nkeywords: [docs]\n---\nDocs.\n")
	writeFile(t, first, "docs/_index/guide/SKILL.md", "not the guide skill's SKILL.md")
	writeFile(t, first, "docs/_index/guide/notes.txt", "category copy")
	writeFile(t, first, "docs/_index/other", "a file where a skill directory goes")
	writeFile(t, first, "docs/guide.md", "---\ndescription: Guide\nkeywords: [guide]\n---\nGuide.\n")
	writeFile(t, first, "docs/guide/notes.txt", "guide copy")
	writeFile(t, first, "docs/other.md", "---\ndescription: Other\nkeywords: [other]\n---\nOther.\n")
	snap, err := index.New(index.Options{Roots: []index.Root{{Dir: first, Source: "a"}, {Dir: second, Source: "b"}}}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v := buildSkillsView(snap, hclog.NewNullLogger())

	skills := []struct{ name, uri, wantPath string }{
		{name: "an Agent Skill wins over a tree category of another root", uri: "skill://tools/SKILL.md", wantPath: "tools"},
		{name: "an Agent Skill wins over a tree category named alike", uri: "skill://ui/SKILL.md", wantPath: "ui"},
		{name: "category", uri: "skill://docs/SKILL.md", wantPath: "docs/_index"},
		{name: "skill nested in the category", uri: "skill://docs/guide/SKILL.md", wantPath: "docs/guide"},
		{name: "skill whose directory a category file would hide", uri: "skill://docs/other/SKILL.md", wantPath: "docs/other"},
	}
	for _, tt := range skills {
		t.Run(tt.name, func(t *testing.T) {
			ss, ok := v.byURI[tt.uri]
			if !ok || ss.skill.Path != tt.wantPath {
				t.Errorf("got %+v, want skill %s at %s; have %v", ss, tt.wantPath, tt.uri, keysOf(v.byURI))
			}
		})
	}
	if len(v.skills) != len(skills) {
		t.Errorf("got %d skills served, want %d: %v", len(v.skills), len(skills), keysOf(v.byURI))
	}
	files := []struct{ name, uri, wantOwner, wantContent string }{
		{name: "the deeper skill wins a file", uri: "skill://docs/guide/notes.txt", wantOwner: "docs/guide", wantContent: "guide copy"},
		{name: "a skill's SKILL.md wins over a file", uri: "skill://docs/guide/SKILL.md", wantOwner: "docs/guide"},
		{name: "a directory wins over a file", uri: "skill://docs/other"},
		{name: "files of a skill not served are not served", uri: "skill://ui/x.txt"},
	}
	for _, tt := range files {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := v.file(tt.uri)
			if tt.wantOwner == "" {
				if ok {
					t.Errorf("got %+v, want nothing served", f)
				}
				return
			}
			if !ok || f.owner.Path != tt.wantOwner {
				t.Fatalf("got %+v, want a file of %s", f, tt.wantOwner)
			}
			if tt.wantContent != "" {
				data, err := v.snap.ReadFile(f.owner, f.rel, 0)
				if err != nil || string(data) != tt.wantContent {
					t.Errorf("got %q, %v, want %q", data, err, tt.wantContent)
				}
			}
		})
	}
	t.Run("each file is listed once under the category", func(t *testing.T) {
		seen := map[string]bool{}
		for _, r := range v.entry(v.byURI["skill://docs/SKILL.md"]).Resources {
			if seen[r.URI] {
				t.Errorf("%s listed twice", r.URI)
			}
			seen[r.URI] = true
		}
		for _, uri := range []string{"skill://docs/SKILL.md", "skill://docs/guide/SKILL.md", "skill://docs/guide/notes.txt", "skill://docs/other/SKILL.md"} {
			if !seen[uri] {
				t.Errorf("%s not listed; got %v", uri, seen)
			}
		}
	})
}

// writeFile writes content at rel under dir.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
