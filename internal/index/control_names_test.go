package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlCharacterNamesSkipped: a tree file, a folder, an Agent Skill's
// file and a tree skill's resource file whose names hold a control character
// are left out and reported, each once, with the name escaped.
func TestControlCharacterNamesSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"a\tb.md":            "---\ndescription: tab\nkeywords: [tab]\n---\n",
		"ok.md":              "---\ndescription: ok\nkeywords: [ok]\n---\n",
		"ok/x\x7fy.txt":      "del\n",
		"ok/fine.txt":        "fine\n",
		"dir\u0085/SKILL.md": "---\nname: dir\ndescription: next line\n---\n",
		"kit/SKILL.md":       "---\nname: kit\ndescription: kit\n---\n",
		"kit/\x1b.sh":        "echo\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sn, log := mustBuild(t, dir)
	if got := strings.Join(sn.Paths(), ","); got != "kit,ok" {
		t.Errorf("got skills %q, want kit,ok", got)
	}
	for _, name := range []string{"ok", "kit"} {
		s, _ := sn.Get(name)
		for _, f := range sn.Files(s) {
			if strings.ContainsAny(f.Path, "\x7f\x1b") {
				t.Errorf("%s lists %q", name, f.Path)
			}
		}
	}
	count := map[string]int{}
	for _, p := range sn.Problems() {
		if strings.Contains(p.Message, "control character") {
			count[p.File]++
		}
	}
	want := map[string]int{`a\tb.md`: 1, `dir\u0085`: 1, `kit/\x1b.sh`: 1, `ok/x\x7fy.txt`: 1}
	if len(count) != len(want) {
		t.Errorf("got problems %v, want %v", count, want)
	}
	for file, n := range want {
		if count[file] != n {
			t.Errorf("%s reported %d times, want %d (problems %v)", file, count[file], n, count)
		}
	}
	if strings.ContainsAny(log, "\t\x7f\x1b\u0085") {
		t.Errorf("the log holds a raw control character:\n%q", log)
	}
}
