package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultRoots(t *testing.T) {
	t.Parallel()
	all := []string{
		"cwd/.agents/skills", "cwd/.agent/skills", "cwd/.claude/skills", "cwd/skills",
		"home/.agents/skills", "home/.agent/skills", "home/.claude/skills",
	}
	allSources := []string{"project", "project", "project", "project", "global", "global", "global"}
	tests := []struct {
		name        string
		dirs        []string // created under the temp dir ("cwd/…", "home/…")
		files       []string // created as plain files
		sameCwdHome bool
		want        []string
		wantSources []string
	}{
		{name: "none exist", want: []string{}},
		{name: "all exist, precedence order", dirs: all, want: all, wantSources: allSources},
		{name: "project claude and global agents", dirs: []string{"home/.agents/skills", "cwd/.claude/skills"},
			want: []string{"cwd/.claude/skills", "home/.agents/skills"}, wantSources: []string{"project", "global"}},
		{name: "plain skills dir of the project", dirs: []string{"cwd/skills", "home/.claude/skills"},
			want: []string{"cwd/skills", "home/.claude/skills"}, wantSources: []string{"project", "global"}},
		{name: "a file is not a root", dirs: []string{"cwd/.agent"}, files: []string{"cwd/.agent/skills"}, want: []string{}},
		{name: "cwd equal to home listed once as project", dirs: []string{"cwd/.claude/skills"}, sameCwdHome: true,
			want: []string{"cwd/.claude/skills"}, wantSources: []string{"project"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			for _, d := range tt.dirs {
				if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(base, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cwd, home := filepath.Join(base, "cwd"), filepath.Join(base, "home")
			if tt.sameCwdHome {
				home = cwd
			}
			got := DefaultRoots(cwd, home)
			gotDirs, gotSources := []string{}, []string{}
			for _, r := range got {
				rel, err := filepath.Rel(base, r.Dir)
				if err != nil {
					t.Fatal(err)
				}
				gotDirs = append(gotDirs, filepath.ToSlash(rel))
				gotSources = append(gotSources, r.Source)
				if r.Required {
					t.Errorf("%s: Required, want optional", r.Dir)
				}
			}
			if !reflect.DeepEqual(gotDirs, tt.want) {
				t.Errorf("dirs: got %q, want %q", gotDirs, tt.want)
			}
			if len(tt.want) > 0 && !reflect.DeepEqual(gotSources, tt.wantSources) {
				t.Errorf("sources: got %q, want %q", gotSources, tt.wantSources)
			}
		})
	}
}

func TestCandidateRoots(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cwd, home := filepath.Join(base, "cwd"), filepath.Join(base, "home")
	got := CandidateRoots(cwd, home)
	want := []Root{
		{Dir: filepath.Join(cwd, ".agents", "skills"), Source: "project"},
		{Dir: filepath.Join(cwd, ".agent", "skills"), Source: "project"},
		{Dir: filepath.Join(cwd, ".claude", "skills"), Source: "project"},
		{Dir: filepath.Join(cwd, "skills"), Source: "project"},
		{Dir: filepath.Join(home, ".agents", "skills"), Source: "global"},
		{Dir: filepath.Join(home, ".agent", "skills"), Source: "global"},
		{Dir: filepath.Join(home, ".claude", "skills"), Source: "global"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v,\nwant %+v", got, want)
	}
	if got := CandidateRoots("", home); len(got) != 3 || got[0].Source != "global" {
		t.Errorf("no cwd: got %+v, want the three global roots", got)
	}
	if got := CandidateRoots("", ""); len(got) != 0 {
		t.Errorf("no cwd nor home: got %+v, want none", got)
	}
}

// TestRootPrecedence covers files 002 §1 and 003 (first match wins): an
// earlier root wins a skill path and an Agent Skills name; the loser is
// reported with both files named.
func TestRootPrecedence(t *testing.T) {
	t.Parallel()
	project := writeTree(t, map[string]string{
		"git/SKILL.md":     agentMD("git", "project git", "", ""),
		"shared.md":        skillMD("project shared", "", ""),
		"renamed/SKILL.md": agentMD("Deploy", "project deploy", "", ""),
	})
	global := writeTree(t, map[string]string{
		"git/SKILL.md":      agentMD("git", "global git", "", ""),
		"shared.md":         skillMD("global shared", "", ""),
		"deploy/SKILL.md":   agentMD("deploy", "global deploy", "", ""),
		"postgres/SKILL.md": agentMD("postgres", "global postgres", "", ""),
		"only-global.md":    skillMD("global only", "", ""),
	})
	third := writeTree(t, map[string]string{
		"postgres/SKILL.md": agentMD("postgres", "third postgres", "", ""),
	})
	sn, _, log := buildRoots(t,
		Root{Dir: project, Source: "project"},
		Root{Dir: global, Source: "global"},
		Root{Dir: third, Source: "extra"},
	)
	tests := []struct {
		name, lookup, wantDesc, wantSource, wantRoot string
	}{
		{"project beats global", "git", "project git", "project", project},
		{"tree path: project beats global", "shared", "project shared", "project", project},
		{"the folder bearing the name beats a name borrowed in an earlier root", "deploy", "global deploy", "global", global},
		{"earlier beats later", "postgres", "global postgres", "global", global},
		{"only in a later root", "only-global", "global only", "global", global},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := sn.ByName(tt.lookup)
			if !ok {
				t.Fatalf("ByName(%q): not found; names %q", tt.lookup, sn.Names())
			}
			if s.Description != tt.wantDesc || s.Source != tt.wantSource || s.Root != tt.wantRoot {
				t.Errorf("got %q from %s (%s), want %q from %s (%s)", s.Description, s.Root, s.Source, tt.wantDesc, tt.wantRoot, tt.wantSource)
			}
		})
	}
	if got, want := sn.Paths(), []string{"deploy", "git", "only-global", "postgres", "renamed", "shared"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Paths: got %q, want %q", got, want)
	}
	// the start-up log names each shadowed path once, one line per root
	// (issue 29); validate lists each with the file that wins (the problems)
	for _, want := range []string{
		global + ": 2 skills are shadowed by the same path in an earlier skills directory, not served: git, shared\n",
		third + ": 1 skill is shadowed by the same path in an earlier skills directory, not served: postgres\n",
	} {
		if strings.Count(log, want) != 1 {
			t.Errorf("log: want once %q in\n%s", want, log)
		}
	}
	if strings.Contains(log, "skipping ") || strings.Count(log, "postgres") != 1 {
		t.Errorf("log: a shadowed path is named more than once:\n%s", log)
	}
	var shadowProblems []Problem
	for _, p := range sn.Problems() {
		if strings.HasPrefix(p.Message, "shadowed: ") {
			shadowProblems = append(shadowProblems, p)
		}
	}
	wantProblems := []Problem{
		{File: "git/SKILL.md", Root: global, Line: 1, Severity: SeverityWarning,
			Message: "shadowed: skill git already comes from " + filepath.Join(project, "git", "SKILL.md")},
		{File: "shared.md", Root: global, Line: 1, Severity: SeverityWarning,
			Message: "shadowed: skill shared already comes from " + filepath.Join(project, "shared.md")},
		{File: "postgres/SKILL.md", Root: third, Line: 1, Severity: SeverityWarning,
			Message: "shadowed: skill postgres already comes from " + filepath.Join(global, "postgres", "SKILL.md")},
	}
	if !reflect.DeepEqual(shadowProblems, wantProblems) {
		t.Errorf("got problems %+v,\nwant %+v", shadowProblems, wantProblems)
	}
}

// TestRootsWithinOneRootNameClash: two folders of one root bearing the same
// name (case aside) are both served; the bare name is ambiguous and each is
// reached by its path.
func TestRootsWithinOneRootNameClash(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"a/git/SKILL.md": agentMD("git", "first", "", ""),
		"b/git/SKILL.md": agentMD("GIT", "second", "", ""),
	})
	sn, _, _ := buildRoots(t, Root{Dir: root, Source: "project"})
	if got, want := sn.Paths(), []string{"a/git", "b/git"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if s, cands := sn.Lookup("Git"); s != nil || len(cands) != 2 || cands[0].Path != "a/git" || cands[1].Path != "b/git" {
		t.Errorf("Lookup(Git): got %v %v, want ambiguous between a/git and b/git", s, cands)
	}
	if s, ok := sn.ByName("b/git"); !ok || s.Description != "second" {
		t.Errorf("ByName(b/git): got %v, want the second", s)
	}
}

// TestMissingAndUnreadableRoots covers files 002 §5 and 004: a missing
// directory is skipped silently; one that exists but cannot be read is a
// warning; Rebuild fails only when every existing root fails.
func TestMissingAndUnreadableRoots(t *testing.T) {
	t.Parallel()
	good := writeTree(t, map[string]string{"git/SKILL.md": agentMD("git", "d", "", "")})
	missing := filepath.Join(t.TempDir(), "nope")
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		roots     []Root
		wantErr   bool
		wantPaths []string
		wantWarns int
	}{
		{name: "missing root skipped", roots: []Root{{Dir: missing}, {Dir: good}}, wantPaths: []string{"git"}},
		{name: "only missing roots: empty index", roots: []Root{{Dir: missing}}, wantPaths: []string{}},
		{name: "no roots at all", roots: []Root{{Dir: missing}, {Dir: missing + "2"}}, wantPaths: []string{}},
		{name: "unreadable root warned", roots: []Root{{Dir: notDir}, {Dir: good}}, wantPaths: []string{"git"}, wantWarns: 1},
		{name: "every existing root failing is an error", roots: []Root{{Dir: missing}, {Dir: notDir}}, wantErr: true},
		{name: "required missing root is an error", roots: []Root{{Dir: good}, {Dir: missing, Required: true}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, buf := newTestLogger()
			sn, err := New(Options{Roots: tt.roots, Logger: logger}).Rebuild(context.Background())
			if tt.wantErr {
				if err == nil {
					t.Fatalf("got nil error, want one")
				}
				return
			}
			if err != nil {
				t.Fatalf("Rebuild: %v", err)
			}
			if got := sn.Paths(); !reflect.DeepEqual(got, tt.wantPaths) {
				t.Errorf("got %q, want %q", got, tt.wantPaths)
			}
			if got := len(warnLines(buf.String())); got != tt.wantWarns {
				t.Errorf("got %d warnings, want %d; log:\n%s", got, tt.wantWarns, buf.String())
			}
			if tt.wantWarns > 0 {
				p := sn.Problems()
				if len(p) != 1 || p[0].File != "." || p[0].Root != notDir || p[0].Severity != SeverityError {
					t.Errorf("got problems %+v, want one error for the root %s", p, notDir)
				}
			}
			if strings.Contains(buf.String(), missing) && !strings.Contains(buf.String(), "[DEBUG]") {
				t.Errorf("missing root mentioned above debug level; log:\n%s", buf.String())
			}
		})
	}
}

// TestLegacyRootOption: Options.Root is a single root labelled SKILLS_DIR.
func TestLegacyRootOption(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.md": skillMD("d", "", ""), "b/SKILL.md": agentMD("b", "d", "", "")})
	sn, _ := mustBuild(t, root)
	for _, s := range sn.Skills() {
		if s.Source != SourceSkillsDir || s.Root != root {
			t.Errorf("%s: got source %q root %q, want %q %q", s.Path, s.Source, s.Root, SourceSkillsDir, root)
		}
	}
	if sn.Len() != 2 {
		t.Errorf("got %q, want a and b", sn.Paths())
	}
}

// TestPrefixedRoots: roots given a prefix (SKILLS_DIR=NAME=DIR) are served
// side by side, each skill under its root's name, none shadowed (issue 29).
// A prefixed skill tree's _root.md is the category PREFIX/_index: its skills
// inherit it, and it inherits an unprefixed root's _root.md.
func TestPrefixedRoots(t *testing.T) {
	t.Parallel()
	global := writeTree(t, map[string]string{"_root.md": skillMD("Global", "", "global rules")})
	a := writeTree(t, map[string]string{
		"pdf/SKILL.md": agentMD("pdf", "a pdf", "", "A"),
		"_root.md":     skillMD("A rules", "", "a rules"),
		"ui/_index.md": skillMD("A ui", "", "a ui"),
		"ui/button.md": skillMD("A button", "", "a button"),
	})
	b := writeTree(t, map[string]string{
		"pdf/SKILL.md":  agentMD("pdf", "b pdf", "", "B"),
		"docx/SKILL.md": agentMD("docx", "b docx", "", "B"),
	})
	sn, _, log := buildRoots(t,
		Root{Dir: global, Source: SourceSkillsDir},
		Root{Dir: a, Source: SourceSkillsDir, Prefix: "a"},
		Root{Dir: b, Source: SourceSkillsDir, Prefix: "b"},
	)
	want := []string{"_root", "a/_index", "a/pdf", "a/ui/_index", "a/ui/button", "b/docx", "b/pdf"}
	if got := sn.Paths(); !reflect.DeepEqual(got, want) {
		t.Errorf("Paths: got %q, want %q", got, want)
	}
	if strings.Contains(log, "shadowed") {
		t.Errorf("nothing is shadowed, got\n%s", log)
	}
	var chain []string
	for _, s := range sn.Chain(mustGet(t, sn, "a/ui/button")) {
		chain = append(chain, s.Path)
	}
	if want := []string{"_root", "a/_index", "a/ui/_index", "a/ui/button"}; !reflect.DeepEqual(chain, want) {
		t.Errorf("chain of a/ui/button: got %q, want %q", chain, want)
	}
	if s := mustGet(t, sn, "b/pdf"); s.Description != "b pdf" || s.Name != "pdf" || s.FilePath != "pdf/SKILL.md" {
		t.Errorf("b/pdf: got %+v, want b's pdf, its name and file path unchanged", s)
	}
	if _, ok := sn.ByName("docx"); !ok {
		t.Error("ByName(docx): a name only one collection holds loads its skill")
	}
}

func TestValidPrefix(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"anthropic": true, "team-b": true, "v1.2": true, "A_b": true,
		"": false, "_root": false, ".hidden": false, "a/b": false, "a b": false, "-x": false, "é": false,
		strings.Repeat("x", 65): false,
	} {
		if got := ValidPrefix(p); got != want {
			t.Errorf("ValidPrefix(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestNodeModulesSaid: a node_modules folder is never searched, and that is
// said once at debug level and as a note for validate, not silently.
func TestNodeModulesSaid(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"ok/SKILL.md":                     agentMD("ok", "fine", "", ""),
		"node_modules/pkg/skill/SKILL.md": agentMD("skill", "inside a package", "", ""),
		"tools/node_modules/x/SKILL.md":   agentMD("x", "inside a package", "", ""),
		".git/SKILL.md":                   agentMD("git", "vcs", "", ""),
	})
	sn, log := mustBuild(t, root)
	if got := sn.Paths(); !reflect.DeepEqual(got, []string{"ok"}) {
		t.Errorf("Paths: got %q, want only ok", got)
	}
	var notes []string
	for _, p := range sn.Problems() {
		if p.Severity == SeverityNote {
			notes = append(notes, p.File)
		}
	}
	if want := []string{"node_modules/", "tools/node_modules/"}; !reflect.DeepEqual(notes, want) {
		t.Errorf("notes: got %q, want %q", notes, want)
	}
	for _, dir := range []string{"node_modules/:", "tools/node_modules/:"} {
		if n := strings.Count(log, "[DEBUG] "+dir); n != 1 {
			t.Errorf("log: %q said %d times, want once:\n%s", dir, n, log)
		}
	}
	if strings.Contains(log, ".git") || strings.Contains(log, "[WARN]") {
		t.Errorf("log: want nothing of .git and no warning:\n%s", log)
	}
}
