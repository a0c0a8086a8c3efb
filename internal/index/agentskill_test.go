package index

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// agentMD renders a SKILL.md with the given name and description, extra
// frontmatter lines and a body.
func agentMD(name, description, extra, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n" + extra + "---\n" + body
}

// recordingMatcher is a core.Matcher that keeps the entries of its last Build
// and searches them like fakeMatcher.
type recordingMatcher struct {
	mu      sync.Mutex
	entries []core.MatchEntry
}

func (m *recordingMatcher) Build(entries []core.MatchEntry) core.Searcher {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = append([]core.MatchEntry(nil), entries...)
	return fakeSearcher{entries: m.entries}
}

func (m *recordingMatcher) last() []core.MatchEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entries
}

// buildRoots indexes roots with a recording matcher and a captured logger.
func buildRoots(t *testing.T, roots ...Root) (*Snapshot, *recordingMatcher, string) {
	t.Helper()
	logger, buf := newTestLogger()
	m := &recordingMatcher{}
	sn, err := New(Options{Roots: roots, Matcher: m, Logger: logger}).Rebuild(context.Background())
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	return sn, m, buf.String()
}

// TestMixedTree indexes spec-000 files and Agent Skills folders side by side.
func TestMixedTree(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":                         skillMD("Global", "", "root body"),
		"ui/_index.md":                     skillMD("UI", "", ""),
		"ui/button.md":                     skillMD("Button", "", ""),
		"git/SKILL.md":                     agentMD("git", "Git deployment workflow skill", "license: MIT\n", "\n# Git\n"),
		"git/scripts/deploy.sh":            "echo deploy",
		"git/references/flow.md":           "# flow",
		"tools/pdf/SKILL.md":               agentMD("pdf", "Read PDF files", "keywords: [pdf, acrobat]\npriority: 3\n", "pdf body"),
		"tools/pdf/assets/logo.png":        "png",
		"tools/pdf/notes.md":               "not a skill",
		"tools/pdf/deep/inner.md":          "not a skill either",
		"tools/pdf/deep/nested/SKILL.md":   agentMD("nested", "Nested one", "", ""),
		"tools/pdf/deep/nested/README.md":  "content",
		"ui/widgets/SKILL.md":              agentMD("widgets", "Widget kit", "", ""),
		"ui/widgets/_index.md":             skillMD("not a parent", "", ""),
		"ui/widgets/scripts/build/make.sh": "make",
	})
	sn, m, log := buildRoots(t, Root{Dir: root, Source: "project"})

	wantPaths := []string{"_root", "git", "tools/pdf", "tools/pdf/deep/nested", "ui/_index", "ui/button", "ui/widgets"}
	if got := sn.Paths(); !reflect.DeepEqual(got, wantPaths) {
		t.Fatalf("Paths: got %q, want %q", got, wantPaths)
	}

	t.Run("agent skill fields", func(t *testing.T) {
		git := mustGet(t, sn, "git")
		want := &core.Skill{
			Path:        "git",
			FilePath:    "git/SKILL.md",
			AbsPath:     filepath.Join(root, "git", "SKILL.md"),
			Root:        root,
			Source:      "project",
			Format:      core.FormatAgentSkill,
			Name:        "git",
			Description: "Git deployment workflow skill",
			Keywords:    []string{},
			Inherit:     false,
			Assets:      []core.Asset{},
			Scripts:     []core.Script{},
			Body:        bodyInfoOf([]byte("\n# Git\n")),
			Headings:    nil, // handed to the searcher (see "searcher entries"), not kept
			ResourceDir: filepath.Join(root, "git"),
			Parent:      "",
		}
		if !reflect.DeepEqual(git, want) {
			t.Errorf("got %+v,\nwant %+v", git, want)
		}
		if got := mustContent(t, sn, git); got != "# Git" {
			t.Errorf("Content: got %q, want %q", got, "# Git")
		}
		if chain := sn.Chain(git); len(chain) != 1 || chain[0] != git {
			t.Errorf("Chain: got %v, want only git", chain)
		}
	})

	t.Run("spec-000 keys honoured", func(t *testing.T) {
		pdf := mustGet(t, sn, "tools/pdf")
		if !reflect.DeepEqual(pdf.Keywords, []string{"pdf", "acrobat"}) || pdf.Priority != 3 {
			t.Errorf("got keywords %q priority %v, want [pdf acrobat] 3", pdf.Keywords, pdf.Priority)
		}
	})

	t.Run("tree skills unchanged", func(t *testing.T) {
		button := mustGet(t, sn, "ui/button")
		if button.Format != core.FormatTree || button.Parent != "ui/_index" || button.Source != "project" || !button.Inherit {
			t.Errorf("got format %q parent %q source %q inherit %v, want tree ui/_index project true",
				button.Format, button.Parent, button.Source, button.Inherit)
		}
		if got := mustContent(t, sn, button); !strings.HasPrefix(got, "=== GLOBAL RULES (from _root.md) ===\n\nroot body") {
			t.Errorf("Content: got %q, want the inherited sections", got)
		}
	})

	t.Run("tree", func(t *testing.T) {
		var top []string
		for _, n := range sn.Tree("") {
			top = append(top, n.Path)
		}
		if want := []string{"_root", "git", "tools/pdf", "tools/pdf/deep/nested", "ui/widgets"}; !reflect.DeepEqual(top, want) {
			t.Errorf("top-level: got %q, want %q", top, want)
		}
		nodes := sn.Tree("git")
		if len(nodes) != 1 {
			t.Fatalf("Tree(git): got %d nodes, want 1", len(nodes))
		}
		b, err := json.Marshal(nodes[0])
		if err != nil {
			t.Fatal(err)
		}
		want := `{"name":"git","path":"git","description":"Git deployment workflow skill","keywords":[],"assetCount":1,"scriptCount":1,"children":[]}`
		if string(b) != want {
			t.Errorf("got  %s\nwant %s", b, want)
		}
	})

	t.Run("searcher entries", func(t *testing.T) {
		entries := m.last()
		sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
		want := []core.MatchEntry{
			{Path: "_root", Keywords: []string{"k"}, Name: "_root", Description: "Global"},
			{Path: "git", Keywords: nil, Name: "git", Description: "Git deployment workflow skill", Headings: []string{"Git"}},
			{Path: "tools/pdf", Keywords: []string{"pdf", "acrobat"}, Priority: 3, Name: "pdf", Description: "Read PDF files"},
			{Path: "tools/pdf/deep/nested", Keywords: nil, Name: "nested", Description: "Nested one"},
			{Path: "ui/_index", Keywords: []string{"k"}, Name: "ui", Description: "UI"},
			{Path: "ui/button", Keywords: []string{"k"}, Name: "button", Description: "Button"},
			{Path: "ui/widgets", Keywords: nil, Name: "widgets", Description: "Widget kit"},
		}
		if !reflect.DeepEqual(entries, want) {
			t.Errorf("got %+v,\nwant %+v", entries, want)
		}
		got := sn.Searcher().Search("acrobat")
		if len(got) != 1 || got[0].Path != "tools/pdf" {
			t.Errorf("Search: got %+v, want tools/pdf", got)
		}
	})

	t.Run("a nested SKILL.md is a skill of its own, without a warning", func(t *testing.T) {
		if len(warnLines(log)) != 0 {
			t.Errorf("got warnings %q, want none", warnLines(log))
		}
	})
}

// TestAgentSkillRequiredFields covers files 002 §3 and 003: a SKILL.md without
// a usable name or description, or with malformed frontmatter, is skipped with
// one warning and never breaks the rebuild.
func TestAgentSkillRequiredFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		content    string
		wantReason string // "" when the skill is served
	}{
		{name: "valid", content: agentMD("x", "d", "", "")},
		{name: "missing name", content: "---\ndescription: d\n---\n", wantReason: "name must be a non-empty string"},
		{name: "empty name", content: "---\nname: \"\"\ndescription: d\n---\n", wantReason: "name must be a non-empty string"},
		{name: "blank name", content: "---\nname: \"  \"\ndescription: d\n---\n", wantReason: "name must be a non-empty string"},
		{name: "name a list", content: "---\nname: [x]\ndescription: d\n---\n", wantReason: "name must be a non-empty string"},
		{name: "missing description", content: "---\nname: x\n---\n", wantReason: "description must be a non-empty string"},
		{name: "empty description", content: "---\nname: x\ndescription: \"\"\n---\n", wantReason: "description must be a non-empty string"},
		{name: "broken YAML", content: "---\nname: x\ndescription: [d\n---\n", wantReason: "parsing frontmatter"},
		{name: "no frontmatter", content: "# x\n", wantReason: "no frontmatter block"},
		{name: "unterminated", content: "---\nname: x\ndescription: d\n", wantReason: "frontmatter block is not closed"},
		{name: "frontmatter a list", content: "---\n- x\n---\n", wantReason: "not a mapping"},
		{name: "keywords optional", content: agentMD("x", "d", "", "")},
		{name: "CRLF and BOM", content: "\xEF\xBB\xBF---\r\nname: x\r\ndescription: d\r\n---\r\nbody\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				"ok/SKILL.md": agentMD("ok", "fine", "", ""),
				"x/SKILL.md":  tt.content,
				"x/notes.md":  "content, not a skill",
			})
			sn, log := mustBuild(t, root)
			if _, ok := sn.Get("ok"); !ok {
				t.Errorf("valid skill ok missing; have %v", sn.Paths())
			}
			_, got := sn.Get("x")
			warns := warnLines(log)
			if tt.wantReason == "" {
				if !got || len(warns) != 0 {
					t.Errorf("x: served %v with warnings %q, want served without warnings", got, warns)
				}
				if sn.Len() != 2 {
					t.Errorf("got paths %q, want ok and x only", sn.Paths())
				}
				return
			}
			if got {
				t.Errorf("x: served, want skipped")
			}
			if sn.Len() != 1 {
				t.Errorf("got paths %q, want ok only", sn.Paths())
			}
			if len(warns) != 1 || !strings.Contains(warns[0], "skipping x/SKILL.md: ") || !strings.Contains(warns[0], tt.wantReason) {
				t.Errorf("got warnings %q, want one naming x/SKILL.md and %q", warns, tt.wantReason)
			}
			problems := sn.Problems()
			if len(problems) != 1 || problems[0].File != "x/SKILL.md" || problems[0].Severity != SeverityError || !strings.Contains(problems[0].Message, tt.wantReason) {
				t.Errorf("got problems %+v, want one error on x/SKILL.md", problems)
			}
		})
	}
}

// TestAgentSkillLenientValidation covers the Agent Skills rules beyond
// presence: a break keeps the skill served, logs one warning line and records
// a warning problem on the offending key's line.
func TestAgentSkillLenientValidation(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name     string
		folder   string
		content  string
		wantMsgs []string // substrings, one per problem, in line then message order
		wantLine int      // line of the first problem
	}{
		{name: "valid", folder: "pdf-tools", content: agentMD("pdf-tools", "d", "compatibility: needs python3\n", "")},
		{name: "valid at the limits", folder: long(64), content: agentMD(long(64), long(1024), "compatibility: "+long(500)+"\n", "")},
		{name: "bad characters", folder: "a_b", content: agentMD("a_b", "d", "", ""),
			wantMsgs: []string{"lowercase letters a-z, digits and hyphens"}, wantLine: 2},
		{name: "uppercase", folder: "Git", content: agentMD("Git", "d", "", ""),
			wantMsgs: []string{"lowercase letters a-z, digits and hyphens"}, wantLine: 2},
		{name: "leading hyphen", folder: "-git", content: "---\nname: \"-git\"\ndescription: d\n---\n",
			wantMsgs: []string{"must not start or end with a hyphen"}, wantLine: 2},
		{name: "trailing hyphen", folder: "git-", content: agentMD("git-", "d", "", ""),
			wantMsgs: []string{"must not start or end with a hyphen"}, wantLine: 2},
		{name: "double hyphen", folder: "a--b", content: agentMD("a--b", "d", "", ""),
			wantMsgs: []string{"consecutive hyphens"}, wantLine: 2},
		{name: "name differs from folder", folder: "git-tools", content: agentMD("git", "d", "", ""),
			wantMsgs: []string{`must equal the folder name "git-tools"`}, wantLine: 2},
		{name: "65-char name", folder: long(65), content: agentMD(long(65), "d", "", ""),
			wantMsgs: []string{"name is 65 characters, over the limit of 64"}, wantLine: 2},
		{name: "1025-char description", folder: "x", content: "---\ndescription: " + long(1025) + "\nname: x\n---\n",
			wantMsgs: []string{"description is 1025 characters, over the limit of 1024"}, wantLine: 2},
		{name: "1024 multibyte characters are fine", folder: "x", content: agentMD("x", strings.Repeat("é", 1024), "", "")},
		{name: "501-char compatibility", folder: "x", content: agentMD("x", "d", "license: MIT\ncompatibility: "+long(501)+"\n", ""),
			wantMsgs: []string{"compatibility is 501 characters, over the limit of 500"}, wantLine: 5},
		{name: "compatibility not a string", folder: "x", content: agentMD("x", "d", "compatibility: [a]\n", ""),
			wantMsgs: []string{"compatibility must be a string"}, wantLine: 4},
		{name: "invalid keywords ignored", folder: "x", content: agentMD("x", "d", "keywords: pdf\n", ""),
			wantMsgs: []string{"keywords must be a non-empty list"}, wantLine: 4},
		{name: "inherit has no effect", folder: "x", content: agentMD("x", "d", "inherit: true\n", ""),
			wantMsgs: []string{"an Agent Skill never inherits"}, wantLine: 4},
		{name: "several breaks", folder: "folder", content: agentMD("Bad--Name", "d", "", ""),
			wantMsgs: []string{"lowercase letters", "must equal the folder name", "consecutive hyphens"}, wantLine: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{tt.folder + "/SKILL.md": tt.content})
			sn, log := mustBuild(t, root)
			s, ok := sn.Get(tt.folder)
			if !ok {
				t.Fatalf("%s: not served; log:\n%s", tt.folder, log)
			}
			if s.Inherit || len(s.Keywords) != 0 {
				t.Errorf("got inherit %v keywords %q, want false and none", s.Inherit, s.Keywords)
			}
			problems := sn.Problems()
			warns := warnLines(log)
			if len(tt.wantMsgs) == 0 {
				if len(problems) != 0 || len(warns) != 0 {
					t.Errorf("got problems %+v warnings %q, want none", problems, warns)
				}
				return
			}
			if len(warns) != 1 || !strings.Contains(warns[0], tt.folder+"/SKILL.md: served although it breaks Agent Skills rules") {
				t.Errorf("got warnings %q, want one line naming %s/SKILL.md", warns, tt.folder)
			}
			if len(problems) != len(tt.wantMsgs) {
				t.Fatalf("got problems %+v, want %d", problems, len(tt.wantMsgs))
			}
			for i, want := range tt.wantMsgs {
				p := problems[i]
				severity := SeverityWarning
				if strings.Contains(want, "must equal the folder name") {
					severity = SeverityError // the folder is the skill's identity: validate fails
				}
				if p.Severity != severity || p.File != tt.folder+"/SKILL.md" || p.Root != root || !strings.Contains(p.Message, want) {
					t.Errorf("problem %d: got %+v, want a warning on %s/SKILL.md saying %q", i, p, tt.folder, want)
				}
				if !strings.Contains(warns[0], want) {
					t.Errorf("warning %q: want it to say %q", warns[0], want)
				}
			}
			if problems[0].Line != tt.wantLine {
				t.Errorf("line: got %d, want %d", problems[0].Line, tt.wantLine)
			}
		})
	}
}

// TestAgentSkillDiscovery covers where SKILL.md makes a skill and where it does not.
func TestAgentSkillDiscovery(t *testing.T) {
	t.Parallel()
	valid := agentMD("x", "d", "", "")
	tests := []struct {
		name      string
		files     map[string]string
		wantPaths []string
		wantWarns []string
	}{
		{
			name:      "SKILL.md at the root is not a skill",
			files:     map[string]string{"SKILL.md": valid, "a.md": skillMD("d", "", "")},
			wantPaths: []string{"a"},
			wantWarns: []string{"skipping SKILL.md: a SKILL.md at the root of a skills directory is not a skill"},
		},
		{
			name:      "md files inside a folder are its content",
			files:     map[string]string{"x/SKILL.md": valid, "x/guide.md": skillMD("d", "", ""), "x/sub/_index.md": skillMD("d", "", "")},
			wantPaths: []string{"x"},
		},
		{
			name:      "a nested SKILL.md is a skill of its own",
			files:     map[string]string{"x/SKILL.md": valid, "x/a/y/SKILL.md": agentMD("y", "d", "", ""), "x/b/z/SKILL.md": agentMD("z", "d", "", "")},
			wantPaths: []string{"x", "x/a/y", "x/b/z"},
		},
		{
			name:      "lowercase skill.md is a tree file",
			files:     map[string]string{"x/skill.md": skillMD("d", "", "")},
			wantPaths: []string{"x/skill"},
		},
		{
			name:      "SKILL.md in a resource directory belongs to the tree skill",
			files:     map[string]string{"x.md": skillMD("d", "", ""), "x/SKILL.md": valid},
			wantPaths: []string{"x"},
			wantWarns: []string{"x/SKILL.md: not indexed: x/ is the resource directory of x.md"},
		},
		{
			name:      "hidden folders searched, VCS and node_modules not",
			files:     map[string]string{".curated/x/SKILL.md": valid, ".git/x/SKILL.md": valid, "node_modules/x/SKILL.md": valid, "tools/.hg/x/SKILL.md": valid},
			wantPaths: []string{".curated/x"},
		},
		{
			name:      "deep folder",
			files:     map[string]string{"a/b/c/x/SKILL.md": valid},
			wantPaths: []string{"a/b/c/x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sn, log := mustBuild(t, writeTree(t, tt.files))
			if got := sn.Paths(); !reflect.DeepEqual(got, tt.wantPaths) {
				t.Errorf("got %q, want %q", got, tt.wantPaths)
			}
			warns := warnLines(log)
			if len(warns) != len(tt.wantWarns) {
				t.Fatalf("got warnings %q, want %d", warns, len(tt.wantWarns))
			}
			for i, w := range tt.wantWarns {
				if !strings.Contains(warns[i], w) {
					t.Errorf("warning %d: got %q, want it to contain %q", i, warns[i], w)
				}
			}
		})
	}
}

// TestAgentSkillUnreadable covers file 002 §5 (permission errors): an
// unreadable SKILL.md is skipped with a warning. Root reads any file whatever
// its mode, so the test is skipped when run as root.
func TestAgentSkillUnreadable(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	root := writeTree(t, map[string]string{
		"ok/SKILL.md":     agentMD("ok", "d", "", ""),
		"locked/SKILL.md": agentMD("locked", "d", "", ""),
	})
	if err := os.Chmod(filepath.Join(root, "locked", "SKILL.md"), 0); err != nil {
		t.Fatal(err)
	}
	sn, log := mustBuild(t, root)
	if got, want := sn.Paths(), []string{"ok"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if warns := warnLines(log); len(warns) != 1 || !strings.Contains(warns[0], "skipping locked/SKILL.md") {
		t.Errorf("got warnings %q, want one about locked/SKILL.md", warns)
	}
	if p := sn.Problems(); len(p) != 1 || p[0].Severity != SeverityError || p[0].File != "locked/SKILL.md" {
		t.Errorf("got problems %+v, want one error on locked/SKILL.md", p)
	}
}

// TestAgentSkillRefresh covers file 002 §4: a rebuild picks up new skills and
// drops deleted ones.
func TestAgentSkillRefresh(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"git/SKILL.md": agentMD("git", "d", "", "")})
	ix := New(Options{Roots: []Root{{Dir: root, Source: "project"}}})
	first, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"postgres/SKILL.md": agentMD("postgres", "d", "", "")})
	if err := os.RemoveAll(filepath.Join(root, "git")); err != nil {
		t.Fatal(err)
	}
	second, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := first.Names(), []string{"git"}; !reflect.DeepEqual(got, want) {
		t.Errorf("before: got %q, want %q", got, want)
	}
	if got, want := second.Names(), []string{"postgres"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after: got %q, want %q", got, want)
	}
	if _, ok := second.ByName("git"); ok {
		t.Errorf("ByName(git) after deletion: found, want not found")
	}
}

// TestAgentSkillNeverAParent: an Agent Skills folder whose path looks like a
// tree parent (`data/_index`, `_root`) takes no tree skill as child.
func TestAgentSkillNeverAParent(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root/SKILL.md":       agentMD("root-like", "d", "", ""),
		"data/_index/SKILL.md": agentMD("index-like", "d", "", ""),
		"data/q.md":            skillMD("Q", "", "q body"),
		"data/sql/r.md":        skillMD("R", "", ""),
	})
	sn, _ := mustBuild(t, root)
	for _, p := range []string{"data/q", "data/sql/r", "_root", "data/_index"} {
		if s := mustGet(t, sn, p); s.Parent != "" {
			t.Errorf("%s: got parent %q, want none", p, s.Parent)
		}
	}
	if got := mustContent(t, sn, mustGet(t, sn, "data/q")); got != "=== DATA > Q (from data/q.md) ===\n\nq body" {
		t.Errorf("Content: got %q, want only its own section", got)
	}
	if got := len(sn.Tree("")); got != 4 {
		t.Errorf("Tree: got %d top-level nodes, want 4", got)
	}
}
