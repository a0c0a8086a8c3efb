package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInvalidUTF8NamesSkipped: a folder, a tree file, an Agent Skill's file
// and a tree skill's resource file whose names are not valid UTF-8 are not
// listed (a listing could only show them as U+FFFD, a name that reads
// nothing) but reported, each once, with their bytes written \xNN (issue 29).
func TestInvalidUTF8NamesSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"bad\xffname/SKILL.md": "---\nname: badname\ndescription: bad\n---\n",
		"tree\xfe.md":          "---\ndescription: tree\nkeywords: [tree]\n---\n",
		"ok.md":                "---\ndescription: ok\nkeywords: [ok]\n---\n",
		"ok/r\xc3.txt":         "half a rune\n",
		"ok/fine.txt":          "fine\n",
		"kit/SKILL.md":         "---\nname: kit\ndescription: kit\n---\n",
		"kit/ref\x80.md":       "ref\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Skipf("this file system refuses the name %q: %v", rel, err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", rel, err)
		}
	}
	sn, log := mustBuild(t, dir)
	if got := strings.Join(sn.Paths(), ","); got != "kit,ok" {
		t.Errorf("got skills %q, want kit,ok", got)
	}
	for _, name := range []string{"ok", "kit"} {
		s, _ := sn.Get(name)
		for _, f := range sn.Files(s) {
			if !utf8.ValidString(f.Path) {
				t.Errorf("%s lists %q", name, f.Path)
			}
		}
	}
	count := map[string]int{}
	for _, p := range sn.Problems() {
		if strings.Contains(p.Message, "not valid UTF-8") {
			count[p.File]++
		}
	}
	want := map[string]int{`bad\xffname`: 1, `tree\xfe.md`: 1, `ok/r\xc3.txt`: 1, `kit/ref\x80.md`: 1}
	if len(count) != len(want) {
		t.Errorf("got problems %v, want %v", count, want)
	}
	for file, n := range want {
		if count[file] != n {
			t.Errorf("%s reported %d times, want %d (problems %v)", file, count[file], n, count)
		}
	}
	if !utf8.ValidString(log) {
		t.Errorf("the log holds invalid UTF-8:\n%q", log)
	}
}
