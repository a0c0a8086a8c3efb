package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarningsOncePerContent: a rebuild that finds the same problem in the
// same content (refresh_skills, the watcher) does not print it again; a
// change that makes it read differently prints it anew (issue 29: a
// 1,068-character description was warned about on every rebuild).
func TestWarningsOncePerContent(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("d", 1068)
	root := writeTree(t, map[string]string{"big/SKILL.md": agentMD("big", long, "", "")})
	logger, buf := newTestLogger()
	ix := New(Options{Root: root, Logger: logger})
	for range 3 {
		if _, err := ix.Rebuild(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "description is 1068 characters"); n != 1 {
		t.Errorf("after 3 rebuilds of the same content: warned %d times, want once:\n%s", n, buf.String())
	}
	if n := strings.Count(buf.String(), "skill index rebuilt"); n != 3 {
		t.Errorf("debug lines pass every time: got %d, want 3", n)
	}
	if err := os.WriteFile(filepath.Join(root, "big", "SKILL.md"), []byte(agentMD("big", long+"dd", "", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "description is 1070 characters") {
		t.Errorf("a changed problem is warned about anew:\n%s", buf.String())
	}
	// a second Index (another process) warns again
	logger2, buf2 := newTestLogger()
	if _, err := New(Options{Root: root, Logger: logger2}).Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf2.String(), "description is 1070 characters") {
		t.Errorf("another index warns on its own:\n%s", buf2.String())
	}
}
