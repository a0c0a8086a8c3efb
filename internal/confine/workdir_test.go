package confine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// workTree makes, under one symlink-free temporary directory: a write root
// "root" with sub/deeper, a file, a link staying inside and a link leading
// out; a directory "outside" beside it; and "state", a protected directory.
func workTree(t testing.TB) (base string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"root/sub/deeper", "outside", "state/inner"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "root", "file.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"root/link-in": filepath.Join(base, "root", "sub"), "root/link-out": filepath.Join(base, "outside"),
		"link-to-root": filepath.Join(base, "root"), "link-to-slash": "/"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	return base
}

func TestNewWorkDirsRefusesUnsafeRoots(t *testing.T) {
	t.Parallel()
	base := workTree(t)
	protected := []confine.Protected{
		{Dir: filepath.Join(base, "state"), What: "the state directory"},
		{Dir: filepath.Join(base, "outside", "not-yet", "skills"), What: "a skills directory"},
	}
	for _, tc := range []struct {
		name, root string
		want       string // in the error, beside the root and the variable
	}{
		{"relative", "root", "relative"},
		{"dot", ".", "relative"},
		{"missing", "{base}/missing", "does not exist"},
		{"a file", "{base}/root/file.txt", "not a directory"},
		{"the file system root", "/", "root of the file system"},
		{"a link to the file system root", "{base}/link-to-slash", "root of the file system"},
		{"holds the state directory", "{base}", "holds the state directory"},
		{"inside the state directory", "{base}/state/inner", "lies inside the state directory"},
		{"holds a protected directory not created yet", "{base}/outside", "holds a skills directory"},
		{"NUL byte", "{base}/root\x00", "NUL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := strings.ReplaceAll(tc.root, "{base}", base)
			w, err := confine.NewWorkDirs([]string{filepath.Join(base, "root"), root}, "", protected)
			if err == nil {
				t.Fatalf("NewWorkDirs(%q) = %v, want an error", root, w.Roots())
			}
			for _, want := range []string{confine.WriteRootsEnv, strconv.Quote(root), tc.want} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
	t.Run("safe roots are accepted, resolved", func(t *testing.T) {
		t.Parallel()
		w, err := confine.NewWorkDirs([]string{filepath.Join(base, "root") + "/", filepath.Join(base, "link-to-root")}, "", protected)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(base, "root")
		if got := w.Roots(); len(got) != 2 || got[0] != want || got[1] != want {
			t.Errorf("Roots() = %q, want %q twice", got, want)
		}
	})
}

func TestSplitWriteRoots(t *testing.T) {
	t.Parallel()
	got := confine.SplitWriteRoots(":/a::/b c:")
	if strings.Join(got, "|") != "/a|/b c" {
		t.Errorf("SplitWriteRoots = %q, want [/a /b c]", got)
	}
	if got := confine.SplitWriteRoots(""); len(got) != 0 {
		t.Errorf("SplitWriteRoots(\"\") = %q, want none", got)
	}
}

func TestWorkDirsDir(t *testing.T) {
	t.Parallel()
	base := workTree(t)
	w, err := confine.NewWorkDirs([]string{filepath.Join(base, "link-to-root")}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var none *confine.WorkDirs
	for _, tc := range []struct {
		name string
		w    *confine.WorkDirs
		cwd  string
		want string // with {base}; "" for an error
		says string // in the error
	}{
		{"the root, as resolved", w, "{base}/root", "{base}/root", ""},
		{"the root, as spelled", w, "{base}/link-to-root", "{base}/root", ""},
		{"below the root", w, "{base}/link-to-root/sub/deeper/", "{base}/root/sub/deeper", ""},
		{"a link staying inside", w, "{base}/root/link-in", "{base}/root/sub", ""},
		{"climbing back in", w, "{base}/outside/../root/sub", "{base}/root/sub", ""},
		{"outside", w, "{base}/outside", "", "outside the write roots " + confine.WriteRootsEnv},
		{"outside and missing says nothing of it", w, "{base}/outside/missing", "", "outside the write roots"},
		{"climbing out", w, "{base}/root/../outside", "", "outside the write roots"},
		{"the file system root", w, "/", "", "outside the write roots"},
		{"a link leading out", w, "{base}/root/link-out", "", "through a symlink"},
		{"relative", w, "sub", "", "not an absolute path"},
		{"dot", w, ".", "", "not an absolute path"},
		{"missing", w, "{base}/root/missing", "", "does not exist"},
		{"a file", w, "{base}/root/file.txt", "", "not a directory"},
		{"NUL byte", w, "{base}/root\x00", "", "NUL"},
		{"no write roots", none, "{base}/root", "", confine.WriteRootsEnv + " is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cwd := strings.ReplaceAll(tc.cwd, "{base}", base)
			got, err := tc.w.Dir(cwd)
			if tc.want == "" {
				if !errors.Is(err, core.ErrInvalidArgument) {
					t.Fatalf("Dir(%q) = %q, %v; want an error wrapping %v", cwd, got, err, core.ErrInvalidArgument)
				}
				for _, want := range []string{strconv.Quote(cwd), tc.says} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
				return
			}
			if want := strings.ReplaceAll(tc.want, "{base}", base); err != nil || got != want {
				t.Errorf("Dir(%q) = %q, %v; want %q", cwd, got, err, want)
			}
		})
	}
}

// FuzzWorkDirsDir checks that whatever Dir accepts is an existing directory
// whose resolved path lies under the resolved write root.
func FuzzWorkDirsDir(f *testing.F) {
	base := workTree(f)
	for _, seed := range []string{"", ".", "/", "root", "/root/sub", "/root/../outside", "/root/link-out", "/root/link-in/..",
		"/link-to-root/sub//deeper/./", "/link-to-slash/tmp", "/root/file.txt"} {
		f.Add(seed)
	}
	root := filepath.Join(base, "root")
	w, err := confine.NewWorkDirs([]string{root}, "", nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, suffix string) {
		cwd := suffix
		if strings.HasPrefix(suffix, "/") {
			cwd = base + suffix
		}
		got, err := w.Dir(cwd)
		if err != nil {
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("Dir(%q): error %v does not wrap %v", cwd, err, core.ErrInvalidArgument)
			}
			return
		}
		fi, err := os.Stat(got)
		if err != nil || !fi.IsDir() {
			t.Fatalf("Dir(%q) = %q, not a directory (%v)", cwd, got, err)
		}
		real, err := filepath.EvalSymlinks(got)
		if err != nil || real != got || !confine.Within(root, real) {
			t.Fatalf("Dir(%q) = %q (resolved %q, %v), want a resolved path under %q", cwd, got, real, err, root)
		}
	})
}

func TestScratchIsFreshPrivateAndRemoved(t *testing.T) {
	t.Parallel()
	base := workTree(t)
	scratchBase := filepath.Join(base, "state", "scratch")
	w, err := confine.NewWorkDirs(nil, scratchBase, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.NewScratch()
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(scratchBase); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("scratch base: %v %v, want a directory with mode 0700", fi, err)
	}
	b, err := w.NewScratch()
	if err != nil {
		t.Fatal(err)
	}
	if a.Dir() == b.Dir() || filepath.Dir(a.Dir()) != scratchBase {
		t.Fatalf("scratch dirs %s and %s: want two distinct directories in %s", a.Dir(), b.Dir(), scratchBase)
	}
	if fi, err := os.Stat(a.Dir()); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("scratch dir: %v %v, want a directory with mode 0700", fi, err)
	}
	// What a run may leave: a tree it locked itself out of, and links to
	// files outside, which must survive the removal.
	outsideFile := filepath.Join(base, "outside", "keep.txt")
	if err := os.WriteFile(outsideFile, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(a.Dir(), "locked", "deeper")
	if err := os.MkdirAll(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(locked, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []struct{ name, target string }{{"to-file", outsideFile}, {"to-dir", filepath.Join(base, "outside")}} {
		if err := os.Symlink(link.target, filepath.Join(a.Dir(), "locked", link.name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{locked, filepath.Dir(locked)} {
		if err := os.Chmod(d, 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*confine.Scratch{a, b} {
		if err := s.Remove(); err != nil {
			t.Fatalf("Remove: %v", err)
		}
		if _, err := os.Lstat(s.Dir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after Remove (%v)", s.Dir(), err)
		}
	}
	if data, err := os.ReadFile(outsideFile); err != nil || string(data) != "keep" {
		t.Errorf("the file a link led to: %q %v, want it untouched", data, err)
	}
}

func TestScratchWithoutBaseIsInTempDir(t *testing.T) {
	t.Parallel()
	var w *confine.WorkDirs
	s, err := w.NewScratch()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(s.Dir()) != filepath.Clean(os.TempDir()) {
		t.Errorf("scratch dir %s, want one in %s", s.Dir(), os.TempDir())
	}
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
}
