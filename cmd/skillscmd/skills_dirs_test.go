package skillscmd

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseSkillsDirs: SKILLS_DIR as users write it (issue 29): NAME=DIR
// serves collections side by side, ~ is the home directory (JSON client
// configs pass it unexpanded), the same directory twice is one.
func TestParseSkillsDirs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	a, b := filepath.Join(home, "a"), filepath.Join(home, "b")
	for _, d := range []string{a, b, filepath.Join(home, "x=y")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(home, "link-to-a")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.ListSeparator)
	tests := []struct {
		name, value string
		want        []dirSpec
		wantErr     string
	}{
		{name: "one", value: a, want: []dirSpec{{dir: a, given: a}}},
		{name: "two, empty entries ignored", value: a + sep + sep + b + sep, want: []dirSpec{{dir: a, given: a}, {dir: b, given: b}}},
		{name: "the same twice is one", value: a + sep + a, want: []dirSpec{{dir: a, given: a}}},
		{name: "through a symlink, still one", value: a + sep + link, want: []dirSpec{{dir: a, given: a}}},
		{name: "tilde", value: "~/a", want: []dirSpec{{dir: a, given: a}}},
		{name: "tilde alone", value: "~", want: []dirSpec{{dir: home, given: home}}},
		{name: "named", value: "first=" + a + sep + "second=~/b", want: []dirSpec{{name: "first", dir: a, given: a}, {name: "second", dir: b, given: b}}},
		{name: "a directory holding = written with a slash", value: filepath.Join(home, "x=y"), want: []dirSpec{{dir: filepath.Join(home, "x=y"), given: filepath.Join(home, "x=y")}}},
		{name: "one name for two directories", value: "n=" + a + sep + "n=" + b, wantErr: "names two directories n"},
		{name: "bad name", value: "_root=" + a, wantErr: `the name before '=' may hold only`},
		{name: "name without directory", value: "n=", wantErr: "names no directory"},
		{name: "tilde of another user", value: "~bob/skills", wantErr: "only ~ and ~/… are expanded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSkillsDirs(tt.value, home)
			if tt.wantErr != "" {
				var ue *usageError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
					t.Fatalf("got %v, %v; want a usage error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestNamedCollectionsSideBySide: two collections holding the same paths
// shadow each other unless each directory is named; named, both are served
// (list, search) and validate checks them as serve serves them. The same
// directory twice is served once, without a shadowing warning.
func TestNamedCollectionsSideBySide(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	writeTree(t, a, map[string]string{
		"pdf/SKILL.md":  agentSkill("pdf", "Reads PDF files (collection A).", "# A pdf\n"),
		"docx/SKILL.md": agentSkill("docx", "Word files (collection A).", "# A docx\n"),
	})
	writeTree(t, b, map[string]string{
		"pdf/SKILL.md":  agentSkill("pdf", "Reads PDF files (collection B).", "# B pdf\n"),
		"docx/SKILL.md": agentSkill("docx", "Word files (collection B).", "# B docx\n"),
		"beta/SKILL.md": agentSkill("beta", "Only in B.", "# beta\n"),
	})
	out, errOut, code := runCLI(t, map[string]string{"SKILLS_DIR": a + ":" + b}, "list")
	if code != 0 || strings.Contains(out, "collection B") {
		t.Fatalf("unnamed: exit %d, want B's pdf and docx shadowed:\n%s\n%s", code, out, errOut)
	}
	if strings.Count(errOut, "docx, pdf") != 1 || !strings.Contains(errOut, "SKILLS_DIR=NAME=DIR") {
		t.Errorf("unnamed: want the shadowed paths named once and how to name the directories:\n%s", errOut)
	}

	out, errOut, code = runCLI(t, map[string]string{"SKILLS_DIR": "a=" + a + ":b=" + b}, "list")
	if code != 0 {
		t.Fatalf("named: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"[a/pdf]", "[a/docx]", "[b/pdf]", "[b/docx]", "[b/beta]", "collection A", "collection B"} {
		if !strings.Contains(out, want) {
			t.Errorf("named: no %s in\n%s", want, out)
		}
	}
	if strings.Contains(errOut, "shadowed") {
		t.Errorf("named: nothing is shadowed:\n%s", errOut)
	}
	// a name both collections hold is expected once they are named: a
	// warning (the bare name is ambiguous), not an error failing CI
	out, _, code = runCLI(t, map[string]string{"SKILLS_DIR": "a=" + a + ":b=" + b}, "validate")
	if code != 0 || strings.Contains(out, "shadowed") || !strings.Contains(out, `warning: name collision: "pdf"`) {
		t.Errorf("validate named: exit %d\n%s", code, out)
	}

	_, errOut, code = runCLI(t, map[string]string{"SKILLS_DIR": a + ":" + a}, "list")
	if code != 0 || strings.Contains(errOut, "shadowed") {
		t.Errorf("d:d: exit %d, want served once without a shadowing warning:\n%s", code, errOut)
	}
}
