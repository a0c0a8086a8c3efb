package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// cwdTree makes a skill directory with sub/deeper, a file, a link to sub and a
// link out, plus a directory outside it. Paths are symlink-free.
func cwdTree(t testing.TB) (skill, outside string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	skill = filepath.Join(root, "skill")
	outside = filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(skill, "sub", "deeper"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(skill, "file.txt"), filepath.Join(outside, "file.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"link-in": filepath.Join(skill, "sub"), "link-out": outside, "dangling": filepath.Join(skill, "gone")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(skill, name)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	return skill, outside
}

func TestResolveDir(t *testing.T) {
	skill, outside := cwdTree(t)
	for _, tc := range []struct {
		name    string
		cwd     string
		want    string // with {skill} and {outside} placeholders
		wantErr error
	}{
		{name: "empty is the skill dir", cwd: "", want: "{skill}"},
		{name: "dot is the skill dir", cwd: ".", want: "{skill}"},
		{name: "dot slash is the skill dir", cwd: "./", want: "{skill}"},
		{name: "relative subdirectory", cwd: "sub", want: "{skill}/sub"},
		{name: "relative with trailing slash", cwd: "sub/deeper/", want: "{skill}/sub/deeper"},
		{name: "relative with leading dot", cwd: "./sub", want: "{skill}/sub"},
		{name: "symlink staying inside", cwd: "link-in", want: "{skill}/link-in"},
		{name: "absolute directory", cwd: "{outside}", want: "{outside}"},
		{name: "absolute, uncleaned", cwd: "{outside}/./", want: "{outside}"},
		{name: "absolute missing", cwd: "{outside}/missing", wantErr: core.ErrInvalidArgument},
		{name: "absolute file", cwd: "{outside}/file.txt", wantErr: core.ErrInvalidArgument},
		{name: "relative missing", cwd: "missing", wantErr: core.ErrInvalidArgument},
		{name: "relative file", cwd: "file.txt", wantErr: core.ErrInvalidArgument},
		{name: "below a file", cwd: "file.txt/sub", wantErr: core.ErrInvalidArgument},
		{name: "name too long", cwd: strings.Repeat("n", 300), wantErr: core.ErrInvalidArgument},
		{name: "climbing out", cwd: "../outside", wantErr: core.ErrPathTraversal},
		{name: "climbing out from a subdirectory", cwd: "sub/../..", wantErr: core.ErrPathTraversal},
		{name: "dot-dot that would stay inside", cwd: "sub/..", wantErr: core.ErrPathTraversal},
		{name: "symlink leading out", cwd: "link-out", wantErr: core.ErrPathTraversal},
		{name: "dangling symlink", cwd: "dangling", wantErr: core.ErrPathTraversal},
		{name: "backslash", cwd: `sub\deeper`, wantErr: core.ErrPathTraversal},
		{name: "drive letter", cwd: "C:/Windows", wantErr: core.ErrPathTraversal},
		{name: "NUL byte", cwd: "sub\x00", wantErr: core.ErrPathTraversal},
		{name: "absolute with NUL byte", cwd: "/tmp\x00", wantErr: core.ErrInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expand := strings.NewReplacer("{skill}", skill, "{outside}", outside).Replace
			cwd := expand(tc.cwd)

			got, err := sandbox.ResolveDir(skill, cwd)

			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("ResolveDir(%q) = %q, %v; want an error wrapping %v", cwd, got, err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), strconv.Quote(cwd)) {
					t.Errorf("error %q does not name the directory %q", err, cwd)
				}
				return
			}
			if err != nil {
				t.Fatalf("ResolveDir(%q): %v", cwd, err)
			}
			if want := filepath.FromSlash(expand(tc.want)); got != want {
				t.Errorf("ResolveDir(%q) = %q, want %q", cwd, got, want)
			}
		})
	}
}

// FuzzResolveDir checks that a relative working directory never resolves
// outside the skill directory, and that whatever is accepted is a directory.
func FuzzResolveDir(f *testing.F) {
	for _, seed := range []string{"", ".", "sub", "sub/deeper", "../outside", "link-out", "link-in/../..", "/", "sub//deeper/./"} {
		f.Add(seed)
	}
	skill, _ := cwdTree(f)
	realSkill, err := filepath.EvalSymlinks(skill)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cwd string) {
		got, err := sandbox.ResolveDir(skill, cwd)
		if err != nil {
			if !errors.Is(err, core.ErrInvalidArgument) && !errors.Is(err, core.ErrPathTraversal) {
				t.Fatalf("ResolveDir(%q) error %v wraps neither sentinel", cwd, err)
			}
			return
		}
		fi, err := os.Stat(got)
		if err != nil || !fi.IsDir() {
			t.Fatalf("ResolveDir(%q) = %q, not a directory (%v)", cwd, got, err)
		}
		if filepath.IsAbs(cwd) {
			return
		}
		real, err := filepath.EvalSymlinks(got)
		if err != nil {
			t.Fatalf("ResolveDir(%q) = %q: %v", cwd, got, err)
		}
		if !sandbox.Within(realSkill, real) {
			t.Fatalf("ResolveDir(%q) = %q resolves to %q, outside %q", cwd, got, real, realSkill)
		}
	})
}
