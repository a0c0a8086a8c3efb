package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFingerprint(t *testing.T) {
	t.Parallel()
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		want   bool // whether the fingerprint moves
	}{
		{"nothing", func(t *testing.T, root string) {}, false},
		{"new file", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "b.md"), "b") }, true},
		{"new empty directory", func(t *testing.T, root string) { mkdir(t, filepath.Join(root, "ops")) }, true},
		{"size", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "ui", "a.md"), "longer") }, true},
		{"mtime", func(t *testing.T, root string) {
			if err := os.Chtimes(filepath.Join(root, "ui", "a.md"), past, past); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"mode", func(t *testing.T, root string) {
			if err := os.Chmod(filepath.Join(root, "ui", "a.md"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"rename", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "ui", "a.md"), filepath.Join(root, "ui", "z.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"delete", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "ui", "a.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"root removed", func(t *testing.T, root string) {
			if err := os.RemoveAll(root); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"dot-file", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "ui", ".a.md.swp"), "x") }, false},
		{"inside a dot-directory", func(t *testing.T, root string) { writeFile(t, filepath.Join(root, ".git", "HEAD"), "x") }, false},
		{"directory mtime only", func(t *testing.T, root string) {
			if err := os.Chtimes(filepath.Join(root, "ui"), past, past); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			writeFile(t, filepath.Join(root, "ui", "a.md"), "a")
			writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref")
			before := fingerprint([]string{root})
			tt.change(t, root)
			after := fingerprint([]string{root})
			if got := before != after; got != tt.want {
				t.Errorf("got fingerprint moved %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFingerprintResolvesSymlinkedRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	writeFile(t, filepath.Join(real, "a.md"), "a")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	before := fingerprint([]string{link})
	writeFile(t, filepath.Join(real, "b.md"), "b")
	if after := fingerprint([]string{link}); after == before {
		t.Errorf("got the same fingerprint after a change behind a symlinked root, want a different one")
	}
}

func TestLastPrintSwap(t *testing.T) {
	t.Parallel()
	var l lastPrint
	steps := []struct {
		fp   uint64
		want bool
	}{{1, true}, {1, false}, {2, true}, {2, false}}
	for i, s := range steps {
		if got := l.swap(s.fp); got != s.want {
			t.Errorf("step %d: swap(%d) got %v, want %v", i, s.fp, got, s.want)
		}
	}
}
