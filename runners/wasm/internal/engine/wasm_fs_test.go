package engine

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

const outsideSecret = "outside secret"

// fsFixture makes a mount directory holding data.txt, sub/inner.txt and
// symlinks that stay inside or lead out, next to a directory outside it that
// holds secret.txt. It returns the mount directory.
func fsFixture(t testing.TB) string {
	t.Helper()
	base := t.TempDir()
	mount := filepath.Join(base, "mount")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(mount, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		filepath.Join(mount, "data.txt"):      "data",
		filepath.Join(mount, "sub/inner.txt"): "inner",
		filepath.Join(outside, "secret.txt"):  outsideSecret,
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out-abs":     filepath.Join(outside, "secret.txt"),
		"out-rel":     "../outside/secret.txt",
		"out-dir":     "../outside",
		"in-link":     "data.txt",
		"sub/up-link": "../data.txt",
	} {
		if err := os.Symlink(target, filepath.Join(mount, link)); err != nil {
			t.Fatal(err)
		}
	}
	return mount
}

func openRootFS(t testing.TB, dir string, readOnly bool) *rootFS {
	t.Helper()
	r, err := newRootFS(dir, readOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// readAll opens name read-only and returns its content.
func readAll(r *rootFS, name string) (string, experimentalsys.Errno) {
	f, errno := r.OpenFile(name, experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		return "", errno
	}
	defer f.Close()
	var out []byte
	buf := make([]byte, 64)
	for {
		n, errno := f.Read(buf)
		if errno != 0 {
			return "", errno
		}
		if n == 0 {
			return string(out), 0
		}
		out = append(out, buf[:n]...)
	}
}

func TestRootFSConfinesReads(t *testing.T) {
	mount := fsFixture(t)
	tests := []struct {
		name string
		path string
		want string // "" means the open must fail
	}{
		{"plain file", "data.txt", "data"},
		{"leading slash", "/data.txt", "data"},
		{"nested file", "sub/inner.txt", "inner"},
		{"dot-dot inside", "sub/../data.txt", "data"},
		{"symlink inside", "in-link", "data"},
		{"symlink up, still inside", "sub/up-link", "data"},
		{"dot-dot out", "../outside/secret.txt", ""},
		{"dot-dot out via subdir", "sub/../../outside/secret.txt", ""},
		{"absolute symlink out", "out-abs", ""},
		{"relative symlink out", "out-rel", ""},
		{"through a symlinked dir out", "out-dir/secret.txt", ""},
		{"host path", "/etc/passwd", ""},
	}
	for _, readOnly := range []bool{true, false} {
		r := openRootFS(t, mount, readOnly)
		for _, tt := range tests {
			t.Run(mode(readOnly)+"/"+tt.name, func(t *testing.T) {
				got, errno := readAll(r, tt.path)

				if tt.want == "" && errno == 0 {
					t.Errorf("read %q: got %q, want an error", tt.path, got)
				}
				if tt.want != "" && (errno != 0 || got != tt.want) {
					t.Errorf("read %q: got %q, %v, want %q", tt.path, got, errno, tt.want)
				}
				if _, errno := r.Stat(tt.path); (errno == 0) != (tt.want != "") {
					t.Errorf("stat %q: errno %v, want success = %v", tt.path, errno, tt.want != "")
				}
			})
		}
	}
}

func mode(readOnly bool) string {
	if readOnly {
		return "read-only"
	}
	return "read-write"
}

func TestRootFSReadOnlyRefusesChanges(t *testing.T) {
	mount := fsFixture(t)
	r := openRootFS(t, mount, true)
	tests := []struct {
		name string
		do   func() experimentalsys.Errno
	}{
		{"open for writing", func() experimentalsys.Errno {
			_, errno := r.OpenFile("data.txt", experimentalsys.O_WRONLY, 0)
			return errno
		}},
		{"open read-write", func() experimentalsys.Errno {
			_, errno := r.OpenFile("data.txt", experimentalsys.O_RDWR, 0)
			return errno
		}},
		{"create", func() experimentalsys.Errno {
			_, errno := r.OpenFile("new.txt", experimentalsys.O_CREAT, 0o644)
			return errno
		}},
		{"truncate on open", func() experimentalsys.Errno {
			_, errno := r.OpenFile("data.txt", experimentalsys.O_TRUNC, 0)
			return errno
		}},
		{"mkdir", func() experimentalsys.Errno { return r.Mkdir("d", 0o755) }},
		{"chmod", func() experimentalsys.Errno { return r.Chmod("data.txt", 0o777) }},
		{"rename", func() experimentalsys.Errno { return r.Rename("data.txt", "moved.txt") }},
		{"rmdir", func() experimentalsys.Errno { return r.Rmdir("sub") }},
		{"unlink", func() experimentalsys.Errno { return r.Unlink("data.txt") }},
		{"symlink", func() experimentalsys.Errno { return r.Symlink("data.txt", "l") }},
		{"link", func() experimentalsys.Errno { return r.Link("data.txt", "l") }},
		{"utimens", func() experimentalsys.Errno { return r.Utimens("data.txt", 0, 0) }},
		{"write to a file opened for reading", func() experimentalsys.Errno {
			f, errno := r.OpenFile("data.txt", experimentalsys.O_RDONLY, 0)
			if errno != 0 {
				return 0
			}
			defer f.Close()
			_, errno = f.Write([]byte("x"))
			return errno
		}},
		{"truncate an open file", func() experimentalsys.Errno {
			f, errno := r.OpenFile("data.txt", experimentalsys.O_RDONLY, 0)
			if errno != 0 {
				return 0
			}
			defer f.Close()
			return f.Truncate(0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errno := tt.do(); errno != experimentalsys.EROFS {
				t.Errorf("errno = %v, want EROFS", errno)
			}
		})
	}
	after, err := os.ReadFile(filepath.Join(mount, "data.txt"))
	if err != nil || string(after) != "data" {
		t.Errorf("data.txt after the attempts: %q, %v, want it unchanged", after, err)
	}
	want := []string{"data.txt", "in-link", "out-abs", "out-dir", "out-rel", "sub", "sub/inner.txt", "sub/up-link"}
	if got := listDir(t, mount); !slices.Equal(got, want) {
		t.Errorf("mount holds %v, want the fixture entries only: %v", got, want)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	return names
}

func TestRootFSWritableRefusesLinks(t *testing.T) {
	mount := fsFixture(t)
	r := openRootFS(t, mount, false)
	tests := []struct {
		name   string
		target string
		link   string
		do     func(target, link string) experimentalsys.Errno
	}{
		{"symlink with a relative target out", "../../etc", "evil", r.Symlink},
		{"symlink with an absolute target", "/etc/passwd", "evil", r.Symlink},
		{"symlink with a target inside", "data.txt", "evil", r.Symlink},
		{"hard link", "data.txt", "evil", r.Link},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errno := tt.do(tt.target, tt.link); errno != experimentalsys.EPERM {
				t.Errorf("errno = %v, want EPERM", errno)
			}
			if _, err := os.Lstat(filepath.Join(mount, tt.link)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("host %s: Lstat error %v, want not-exist", tt.link, err)
			}
		})
	}
}

func TestRootFSWritableWorks(t *testing.T) {
	mount := fsFixture(t)
	r := openRootFS(t, mount, false)
	check := func(what string, errno experimentalsys.Errno) {
		t.Helper()
		if errno != 0 {
			t.Fatalf("%s: errno %v, want success", what, errno)
		}
	}

	f, errno := r.OpenFile("new.txt", experimentalsys.O_CREAT|experimentalsys.O_RDWR|experimentalsys.O_TRUNC, 0o644)
	check("create", errno)
	_, errno = f.Write([]byte("hello world"))
	check("write", errno)
	_, errno = f.Pwrite([]byte("HELLO"), 0)
	check("pwrite", errno)
	check("truncate", f.Truncate(8))
	check("sync", f.Sync())
	check("utimens", f.Utimens(1e9, 2e9))
	st, errno := f.Stat()
	check("stat", errno)
	if st.Size != 8 || st.Mtim != 2e9 {
		t.Errorf("stat: size %d mtim %d, want 8 and %d", st.Size, st.Mtim, int64(2e9))
	}
	check("set append", f.SetAppend(true))
	if !f.IsAppend() {
		t.Errorf("IsAppend() = false after SetAppend(true)")
	}
	_, errno = f.Write([]byte("!"))
	check("append", errno)
	check("close", f.Close())
	if got, _ := os.ReadFile(filepath.Join(mount, "new.txt")); string(got) != "HELLO wo!" {
		t.Errorf("new.txt = %q, want %q", got, "HELLO wo!")
	}

	check("mkdir", r.Mkdir("dir", 0o755))
	check("rename", r.Rename("new.txt", "dir/moved.txt"))
	if errno := r.Rmdir("dir/moved.txt"); errno != experimentalsys.ENOTDIR {
		t.Errorf("rmdir of a file: errno %v, want ENOTDIR", errno)
	}
	if errno := r.Unlink("dir"); errno != experimentalsys.EISDIR {
		t.Errorf("unlink of a directory: errno %v, want EISDIR", errno)
	}
	if errno := r.Rename("dir/moved.txt", "../escaped.txt"); errno == 0 {
		t.Errorf("rename out of the mount: succeeded, want an error")
	}
	check("unlink", r.Unlink("dir/moved.txt"))
	check("rmdir", r.Rmdir("dir"))
	if link, errno := r.Readlink("in-link"); errno != 0 || link != "data.txt" {
		t.Errorf("readlink: %q, %v, want %q", link, errno, "data.txt")
	}
}

func TestRootFSReaddirRewinds(t *testing.T) {
	mount := fsFixture(t)
	r := openRootFS(t, mount, true)
	d, errno := r.OpenFile(".", experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	defer d.Close()
	want := []string{"data.txt", "in-link", "out-abs", "out-dir", "out-rel", "sub"}

	for pass := range 2 {
		var names []string
		for {
			dirents, errno := d.Readdir(2)
			if errno != 0 {
				t.Fatalf("pass %d: readdir: %v", pass, errno)
			}
			if len(dirents) == 0 {
				break
			}
			for _, de := range dirents {
				names = append(names, de.Name)
				if de.Ino == 0 {
					t.Errorf("pass %d: %s has inode 0, want the host's", pass, de.Name)
				}
			}
		}
		sort.Strings(names)
		if !slices.Equal(names, want) {
			t.Errorf("pass %d: names %v, want %v", pass, names, want)
		}
		if _, errno := d.Seek(0, io.SeekStart); errno != 0 {
			t.Fatalf("rewind: %v", errno)
		}
	}
}

func TestCleanGuestPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "."},
		{"/", "."},
		{"a", "a"},
		{"/a/b/", "a/b"},
		{"a/./b", "a/b"},
		{"a/../b", "b"},
		{"../a", "../a"},
		{"//a", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := cleanGuestPath(tt.in); got != tt.want {
				t.Errorf("cleanGuestPath(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzWasmRootFS opens arbitrary guest paths on both kinds of mount: whatever
// opens must be inside the mount, never the secret next to it.
func FuzzWasmRootFS(f *testing.F) {
	for _, seed := range []string{"data.txt", "../outside/secret.txt", "out-abs", "out-rel", "out-dir/secret.txt", "sub/../../outside/secret.txt", "/etc/passwd", "."} {
		f.Add(seed)
	}
	mount := fsFixture(f)
	ro, rw := openRootFS(f, mount, true), openRootFS(f, mount, false)
	f.Fuzz(func(t *testing.T, p string) {
		for _, r := range []*rootFS{ro, rw} {
			got, errno := readAll(r, p)
			if errno == 0 && got == outsideSecret {
				t.Fatalf("%s read %q: got the secret outside the mount", mode(r.readOnly), p)
			}
		}
	})
}
