package engine

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveUntracked checks the git clean -fdx step on its own: whatever go-git's
// hard reset leaves behind, only tracked files and .git remain.
func TestRemoveUntracked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.initialized()
	for name, content := range map[string]string{
		"notes.txt":               "untracked\n",
		"skills/debug.log":        "ignored by .gitignore\n",
		"skills/go/extra.md":      "untracked in a tracked directory\n",
		"scratch/deep/tmp.md":     "untracked directory\n",
		".git/info/keep-me":       "inside .git\n",
		"skills/go/testing.md":    "modified tracked files are the reset's business\n",
		"node_modules/x/index.js": "untracked tree\n",
	} {
		writeFile(t, filepath.Join(f.dir, filepath.FromSlash(name)), content)
	}
	if err := os.Symlink(filepath.Join(f.dir, "skills"), filepath.Join(f.dir, "link")); err != nil {
		t.Fatal(err)
	}

	s.mu.Lock()
	err := s.removeUntracked()
	s.mu.Unlock()
	if err != nil {
		t.Fatalf("removeUntracked: %v", err)
	}
	want := maps.Clone(initialFiles)
	want["skills/go/testing.md"] = "modified tracked files are the reset's business\n"
	if d := mapsDiff(readTree(t, f.dir), want); d != "" {
		t.Errorf("after removeUntracked: %s", d)
	}
	for _, gone := range []string{"scratch", "node_modules", "link"} {
		if _, err := os.Lstat(filepath.Join(f.dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s: got %v, want it removed", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".git", "info", "keep-me")); err != nil {
		t.Errorf(".git content: got %v, want it kept", err)
	}
}
