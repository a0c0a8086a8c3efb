package index

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"secret.txt": "top secret"})
	root := writeTree(t, map[string]string{
		"auth.md":            skillMD("auth", "", ""),
		"auth/a.txt":         "hello",
		"auth/sub/b.txt":     "nested",
		"auth/ten.txt":       "0123456789",
		"auth/logo.png":      "\x89PNG\r\n\x1a\n\x00\x01",
		"auth/dir/":          "",
		"auth/inner-link":    "",
		"plain.md":           skillMD("plain", "", ""),
		"other.md":           skillMD("other", "", ""),
		"other/neighbour.md": "neighbour",
	})
	resource := filepath.Join(root, "auth")
	if err := os.Remove(filepath.Join(resource, "inner-link")); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"inner-link":  "a.txt",
		"escape.txt":  filepath.Join(outside, "secret.txt"),
		"escape-dir":  outside,
		"sibling.md":  "../other/neighbour.md",
		"dangling.md": "nowhere.md",
	} {
		if err := os.Symlink(target, filepath.Join(resource, link)); err != nil {
			t.Fatal(err)
		}
	}
	sn, _ := mustBuild(t, root)
	auth := mustGet(t, sn, "auth")
	tests := []struct {
		name     string
		skill    string
		file     string
		max      int64
		want     string
		wantErr  error
		errParts []string
	}{
		{name: "text", file: "a.txt", max: 100, want: "hello"},
		{name: "nested", file: "sub/b.txt", max: 100, want: "nested"},
		{name: "binary", file: "logo.png", max: 100, want: "\x89PNG\r\n\x1a\n\x00\x01"},
		{name: "exactly the limit", file: "ten.txt", max: 10, want: "0123456789"},
		{name: "no limit", file: "ten.txt", max: 0, want: "0123456789"},
		{name: "symlink inside", file: "inner-link", max: 100, want: "hello"},
		{name: "too large", file: "ten.txt", max: 9, wantErr: core.ErrTooLarge, errParts: []string{"ten.txt", "10 bytes", "9 bytes"}},
		{name: "missing", file: "gone.txt", max: 100, wantErr: core.ErrAssetMissing, errParts: []string{`"gone.txt"`, "auth"}},
		{name: "missing nested", file: "no/such/file.txt", max: 100, wantErr: core.ErrAssetMissing},
		{name: "directory", file: "dir", max: 100, wantErr: core.ErrAssetMissing},
		{name: "symlink escaping", file: "escape.txt", max: 100, wantErr: core.ErrPathTraversal},
		{name: "through escaping dir symlink", file: "escape-dir/secret.txt", max: 100, wantErr: core.ErrPathTraversal},
		{name: "symlink to sibling resource dir", file: "sibling.md", max: 100, wantErr: core.ErrPathTraversal},
		{name: "dangling symlink", file: "dangling.md", max: 100, wantErr: core.ErrPathTraversal},
		{name: "dot-dot", file: "../auth.md", max: 100, wantErr: core.ErrPathTraversal},
		{name: "absolute", file: filepath.Join(outside, "secret.txt"), max: 100, wantErr: core.ErrPathTraversal},
		{name: "no resource dir", skill: "plain", file: "a.txt", max: 100, wantErr: core.ErrAssetMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			owner := auth
			if tt.skill != "" {
				owner = mustGet(t, sn, tt.skill)
			}
			got, err := emptySnapshot().ReadFile(owner, tt.file, tt.max)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err: got %v, want %v", err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("data: got %q, want nil", got)
				}
				for _, part := range tt.errParts {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("err %q: want it to contain %s", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("err: got %v, want nil", err)
			}
			if !bytes.Equal(got, []byte(tt.want)) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReadInRootConfines checks the second layer alone: even without the
// confine.Resolve check (a symlink swapped in after it), os.Root refuses to
// follow a symlink out of the resource directory.
func TestReadInRootConfines(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"secret.txt": "top secret"})
	root := writeTree(t, map[string]string{"auth.md": skillMD("auth", "", ""), "auth/a.txt": "hello"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "auth", "swapped.txt")); err != nil {
		t.Fatal(err)
	}
	sn, _ := mustBuild(t, root)
	auth := mustGet(t, sn, "auth")
	if got, err := sn.readInRoot(auth, "a.txt", 100); err != nil || string(got) != "hello" {
		t.Fatalf("a.txt: got %q, %v, want hello", got, err)
	}
	got, err := sn.readInRoot(auth, "swapped.txt", 100)
	if err == nil || got != nil {
		t.Fatalf("swapped.txt: got %q, %v, want an error", got, err)
	}
	if !strings.Contains(err.Error(), "swapped.txt") {
		t.Errorf("err %q: want it to name swapped.txt", err)
	}
}

// TestReadFileResourceDirSwappedAfterIndexing replaces a skill's whole
// resource folder with a symlink to a directory outside the tree once the
// index is built (issue 16, item 1: get_asset and resources/read then served
// the outside file): the read is refused, for a tree skill and for an Agent
// Skills folder's subfolder.
func TestReadFileResourceDirSwappedAfterIndexing(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"a.txt": "top secret", "refs/a.txt": "top secret"})
	root := writeTree(t, map[string]string{
		"auth.md": skillMD("auth", "", ""), "auth/a.txt": "hello",
		"pdf/SKILL.md": "---\nname: pdf\ndescription: Reads PDFs.\n---\n# PDF\n", "pdf/refs/a.txt": "hello",
	})
	sn, _ := mustBuild(t, root)
	tests := []struct{ skill, file, swap, target string }{
		{"auth", "a.txt", "auth", outside},
		{"pdf", "refs/a.txt", "pdf/refs", filepath.Join(outside, "refs")},
	}
	for _, tt := range tests {
		t.Run(tt.skill, func(t *testing.T) {
			s := mustGet(t, sn, tt.skill)
			if got, err := emptySnapshot().ReadFile(s, tt.file, 100); err != nil || string(got) != "hello" {
				t.Fatalf("before the swap: got %q, %v, want hello", got, err)
			}
			swap := filepath.Join(root, filepath.FromSlash(tt.swap))
			if err := os.RemoveAll(swap); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tt.target, swap); err != nil {
				t.Fatal(err)
			}
			if got, err := emptySnapshot().ReadFile(s, tt.file, 100); err == nil || strings.Contains(string(got), "secret") {
				t.Errorf("after the swap: got %q, %v, want an error", got, err)
			}
		})
	}
}
