package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestCheckRelPath(t *testing.T) {
	tests := []struct {
		name, path string
		want       error
	}{
		{"plain", "assets/a.txt", nil},
		{"dot prefix", "./assets/a.txt", nil},
		{"dots inside a name", "a..b/c...d", nil},
		{"empty", "", core.ErrInvalidArgument},
		{"dot-dot", "../x", core.ErrPathTraversal},
		{"dot-dot inside", "a/../../x", core.ErrPathTraversal},
		{"dot-dot that stays inside", "a/../b", core.ErrPathTraversal},
		{"absolute", "/etc/passwd", core.ErrPathTraversal},
		{"backslash", `a\b`, core.ErrPathTraversal},
		{"windows climb", `..\..\x`, core.ErrPathTraversal},
		{"drive letter", "C:/x", core.ErrPathTraversal},
		{"drive letter relative", "c:x", core.ErrPathTraversal},
		{"nul", "a\x00b", core.ErrPathTraversal},
		{"the directory itself", ".", core.ErrPathTraversal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRelPath(tt.path)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("CheckRelPath(%q) = %v, want %v", tt.path, err, tt.want)
			}
		})
	}
}

func TestResolveSymlinks(t *testing.T) {
	base := t.TempDir()
	outside := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(base, "in"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "in", "ok.txt"), []byte("ok"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(base, "leak")))
	must(t, os.Symlink(outside, filepath.Join(base, "dirlink")))
	must(t, os.Symlink("in/ok.txt", filepath.Join(base, "inner")))
	must(t, os.Symlink(filepath.Join(outside, "nowhere"), filepath.Join(base, "dangling")))
	tests := []struct {
		name, rel string
		want      error
	}{
		{"regular file", "in/ok.txt", nil},
		{"missing file inside", "in/missing.txt", nil},
		{"symlink inside the base", "inner", nil},
		{"symlink to a file outside", "leak", core.ErrPathTraversal},
		{"through a symlinked dir", "dirlink/secret", core.ErrPathTraversal},
		{"missing file under a symlinked dir", "dirlink/new.txt", core.ErrPathTraversal},
		{"dangling symlink", "dangling", core.ErrPathTraversal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(base, tt.rel)
			if tt.want == nil {
				if err != nil || got != filepath.Join(base, tt.rel) {
					t.Errorf("Resolve(%q) = %q, %v", tt.rel, got, err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.rel) {
				t.Errorf("Resolve(%q) error = %v, want %v naming the path", tt.rel, err, tt.want)
			}
		})
	}
}

func FuzzCheckRelPath(f *testing.F) {
	for _, s := range []string{"a/b.txt", "../x", "/etc", `a\b`, "C:x", "a/./b", "a//b", "..", "...", "a/.."} {
		f.Add(s)
	}
	base := f.TempDir()
	f.Fuzz(func(t *testing.T, rel string) {
		if CheckRelPath(rel) != nil {
			return
		}
		// Whatever passes the lexical check joins to a path inside base.
		if joined := filepath.Join(base, rel); !Within(base, joined) || joined == base {
			t.Errorf("CheckRelPath accepted %q, which joins to %q outside %q", rel, joined, base)
		}
		if strings.ContainsAny(rel, "\\\x00") || strings.HasPrefix(rel, "/") {
			t.Errorf("CheckRelPath accepted %q", rel)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
