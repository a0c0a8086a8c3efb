package index

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDiscovery(t *testing.T) {
	t.Parallel()
	valid := skillMD("d", "", "")
	tests := []struct {
		name      string
		files     map[string]string
		symlinks  map[string]string // link (relative) → target (relative to the root, or absolute)
		wantPaths []string
	}{
		{name: "empty directory", files: map[string]string{}, wantPaths: []string{}},
		{name: "only non-markdown", files: map[string]string{"a.txt": "x", "b/c.yaml": "y"}, wantPaths: []string{}},
		{
			name: "resource directories are not walked",
			files: map[string]string{
				"ui/react/auth.md":               valid,
				"ui/react/auth/README.md":        valid,
				"ui/react/auth/deep/notes.md":    valid,
				"_root.md":                       valid,
				"_root/guide.md":                 valid,
				"ui/_index.md":                   valid,
				"ui/_index/tokens.md":            valid,
				"ui/react/other-dir/_index.md":   valid,
				"ui/react/other-dir/sibling.txt": "",
			},
			wantPaths: []string{"_root", "ui/_index", "ui/react/auth", "ui/react/other-dir/_index"},
		},
		{
			name: "dot files and directories skipped",
			files: map[string]string{
				".git/HEAD.md":      valid,
				".hidden.md":        valid,
				"ui/.draft.md":      valid,
				"ui/.svn/x.md":      valid,
				"ui/visible.md":     valid,
				"ui/file.MD":        valid,
				"ui/readme.md.bak":  valid,
				"ui/empty-dir/":     "",
				"ui/plain-dir/x.md": valid,
			},
			wantPaths: []string{"ui/plain-dir/x", "ui/visible"},
		},
		{
			name:      "directory symlink to a walked folder is a mirror",
			files:     map[string]string{"real/a.md": valid},
			symlinks:  map[string]string{"link": "real"},
			wantPaths: []string{"real/a"},
		},
		{
			name:      "file symlink to a served skill is a mirror",
			files:     map[string]string{"real/a.md": valid},
			symlinks:  map[string]string{"alias.md": "real/a.md"},
			wantPaths: []string{"real/a"},
		},
		{
			name:      "file symlink inside the root is a skill",
			files:     map[string]string{"real/a.txt": valid},
			symlinks:  map[string]string{"alias.md": "real/a.txt"},
			wantPaths: []string{"alias"},
		},
		{
			name:      "dangling file symlink skipped",
			files:     map[string]string{"a.md": valid},
			symlinks:  map[string]string{"gone.md": "nowhere.md"},
			wantPaths: []string{"a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			for link, target := range tt.symlinks {
				if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
					t.Fatal(err)
				}
			}
			sn, _ := mustBuild(t, root)
			if got := sn.Paths(); !reflect.DeepEqual(got, tt.wantPaths) {
				t.Errorf("got %q, want %q", got, tt.wantPaths)
			}
			if sn.Len() != len(tt.wantPaths) {
				t.Errorf("Len: got %d, want %d", sn.Len(), len(tt.wantPaths))
			}
		})
	}
}

func TestDiscoveryOutsideSymlinkSkipped(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"secret.md": skillMD("d", "", "")})
	root := writeTree(t, map[string]string{"a.md": skillMD("d", "", "")})
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "secret.md")); err != nil {
		t.Fatal(err)
	}
	sn, _ := mustBuild(t, root)
	if got, want := sn.Paths(), []string{"a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDiscoveryUnreadable(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	root := writeTree(t, map[string]string{
		"ok.md":        skillMD("d", "", ""),
		"locked.md":    skillMD("d", "", ""),
		"closed/in.md": skillMD("d", "", ""),
	})
	if err := os.Chmod(filepath.Join(root, "locked.md"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "closed"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, "closed"), 0o755) })
	sn, log := mustBuild(t, root)
	if got, want := sn.Paths(), []string{"ok"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := len(warnLines(log)); got != 2 {
		t.Errorf("got %d warnings, want 2; log:\n%s", got, log)
	}
}

func TestSkillLocation(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"ui/react/auth.md":       skillMD("d", "", ""),
		"ui/react/auth/x.txt":    "",
		"ui/_index.md":           skillMD("d", "", ""),
		"_root.md":               skillMD("d", "", ""),
		"_root/":                 "",
		"ui/react/plain.md":      skillMD("d", "", ""),
		"ui/react/file-named.md": skillMD("d", "", ""),
		"ui/react/file-named":    "not a directory",
	})
	sn, _ := mustBuild(t, root)
	tests := []struct {
		path, wantFile, wantResource string
	}{
		{"ui/react/auth", "ui/react/auth.md", "ui/react/auth"},
		{"ui/_index", "ui/_index.md", ""},
		{"_root", "_root.md", "_root"},
		{"ui/react/plain", "ui/react/plain.md", ""},
		{"ui/react/file-named", "ui/react/file-named.md", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s := mustGet(t, sn, tt.path)
			if s.FilePath != tt.wantFile {
				t.Errorf("FilePath: got %q, want %q", s.FilePath, tt.wantFile)
			}
			if want := filepath.Join(root, tt.wantFile); s.AbsPath != want {
				t.Errorf("AbsPath: got %q, want %q", s.AbsPath, want)
			}
			if s.Root != root {
				t.Errorf("Root: got %q, want %q", s.Root, root)
			}
			want := ""
			if tt.wantResource != "" {
				want = filepath.Join(root, tt.wantResource)
			}
			if s.ResourceDir != want {
				t.Errorf("ResourceDir: got %q, want %q", s.ResourceDir, want)
			}
		})
	}
}
