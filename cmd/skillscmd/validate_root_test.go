package skillscmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// Outside a content repository, validate says so in one line and exits 2
// instead of reporting every Markdown file it finds.
func TestValidateNoSkillsRoot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		args  []string
	}{
		{"empty directory", nil, nil},
		{"a source tree with docs", map[string]string{
			"README.md":          "# A project\n",
			"docs/guide.md":      "# Guide\n\nNo frontmatter here.\n",
			"docs/api/errors.md": "Errors\n======\n",
			"main.go":            "package main\n",
		}, nil},
		{"a static site whose pages have frontmatter", map[string]string{
			"docs/index.md":          "---\nlayout: home\ntitle: A project\n---\n# Welcome\n",
			"docs/TRANSLATORS.md":    "---\ntitle: Translators\ndescription: How to translate\n---\n",
			"docs/_posts/2024-01.md": "---\ntitle: News\n---\n",
		}, nil},
		{"named on the command line", map[string]string{"notes/todo.md": "- buy milk\n"}, []string{"notes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			r := runValidateBin(t, dir, nil, tt.args...)
			if r.code != exitUsage {
				t.Errorf("exit %d, want %d", r.code, exitUsage)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], "no skills root found in ") || !strings.Contains(lines[0], "skills-mcp validate DIR") {
				t.Errorf("stderr = %q, want one line saying no skills root was found and what to pass", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
		})
	}
}

// A skills directory without skills/ or config.yaml is still recognised by
// its skill files, however they are laid out.
func TestValidateFindsBareSkillsDirectories(t *testing.T) {
	t.Parallel()
	tests := map[string]map[string]string{
		"an Agent Skills folder": {"deep/er/still/my-skill/SKILL.md": "---\nname: my-skill\ndescription: d\n---\n"},
		"a tree skill":           {"ui/login.md": "---\ndescription: Login\nkeywords: [login]\n---\n# Login\n"},
		"a root file":            {"_root.md": "---\ndescription: Rules\nkeywords: [rules]\n---\n"},
	}
	for name, files := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, files)
			if r := runValidateBin(t, dir, nil); r.code == exitUsage {
				t.Errorf("exit %d, want the directory checked\n%s", r.code, r.stderr)
			}
		})
	}
}

// A directory of linked collections (how ~/.claude/skills often looks) is a
// skills directory: validate follows the folder links serve follows.
func TestValidateFindsLinkedCollections(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"collection/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Reads PDFs.\n---\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"collection": "->" + filepath.Join(outside, "collection")})
	if r := runValidateBin(t, dir, nil); r.code != exitOK || !strings.Contains(r.stdout, "0 errors, 0 warnings") {
		t.Errorf("exit %d, want the linked collection checked\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// Pointed at the root `init` writes, validate checks its skills/ folder and
// names it; through SKILLS_DIR too, as serve now serves that folder (issue 29).
func TestValidateInitRootHint(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	root := filepath.Join(parent, "content")
	if _, stderr, code := runCLI(t, nil, "init", root); code != exitOK {
		t.Fatalf("init: %s", stderr)
	}
	r := runValidateBin(t, parent, nil, "content")
	if r.code != exitOK || !strings.Contains(r.stdout, "0 errors, 0 warnings") {
		t.Errorf("validate content: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := "checking " + filepath.Join("content", "skills") + ", the skills folder of the repository content"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
	r = runValidateBin(t, parent, []string{"SKILLS_DIR=" + root}, "--json")
	if r.code != exitOK {
		t.Errorf("validate with SKILLS_DIR: exit %d\n%s", r.code, r.stderr)
	}
	if found := decodeReport(t, r).Findings; len(found) != 0 {
		t.Errorf("findings = %+v, want none: the skills folder is what serve serves", found)
	}
}

// One path per skill in every mode (issue 29): SKILLS_DIR naming a content
// repository root (skills/ beside config.yaml) serves its skills/ folder, as
// git mode does, so the starter's skill is guides/code-review whichever
// directory is named, never skills/guides/code-review. A folder holding
// skills/ without config.yaml is a collection, served whole.
func TestServeRepositoryRootServesSkillsFolder(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "content")
	if _, stderr, code := runCLI(t, nil, "init", root); code != exitOK {
		t.Fatalf("init: %s", stderr)
	}
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"config.yaml":         "matching:\n  min_score: 0.2\n",
		"skills/pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n"),
		"template/SKILL.md":   agentSkill("template-skill", "A template.", "# t\n"),
	})
	collection := t.TempDir()
	writeTree(t, collection, map[string]string{"skills/pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	for _, tt := range []struct {
		name, dir string
		want      string
		note      bool
	}{
		{"init's root", root, "[guides/code-review]", true},
		{"init's skills folder", filepath.Join(root, "skills"), "[guides/code-review]", false},
		{"a content repository with more beside skills/", repo, "[pdf]", true},
		{"a collection with skills/ inside", collection, "[skills/pdf]", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, map[string]string{"SKILLS_DIR": tt.dir, "SKILLS_LOG_LEVEL": "info"}, "list")
			if code != exitOK || !strings.Contains(out, tt.want) || strings.Contains(out, "template") {
				t.Errorf("exit %d, want %s alone\n%s%s", code, tt.want, out, errOut)
			}
			if got := strings.Contains(errOut, "is a repository root: serving its skills folder"); got != tt.note {
				t.Errorf("noted %v, want %v:\n%s", got, tt.note, errOut)
			}
		})
	}
}

// Without config.yaml beside it, a skills/ folder is checked through
// SKILLS_DIR without the warning: serve would not warn either.
func TestValidateSkillsFolderWithoutConfig(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"skills/clean/SKILL.md": cleanSkill})
	r := runValidateBin(t, t.TempDir(), []string{"SKILLS_DIR=" + root}, "--json")
	if found := decodeReport(t, r).Findings; r.code != exitOK || len(found) != 0 {
		t.Errorf("exit %d, findings %+v; want a clean run", r.code, found)
	}
}
