package engine

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// rootFS is a wazero file system confined to one host directory through an
// os.Root: every path the guest names, and every symlink on the way, is resolved
// by the kernel relative to the root's descriptor and may not climb out of it.
// wazero's own DirFS follows symlinks anywhere on the host, which is why mounts
// use this instead.
//
// A read-only rootFS refuses every change with EROFS. A writable one still
// refuses Symlink and Link with EPERM: a link the guest plants could be followed
// later by a host process that is not confined.
type rootFS struct {
	experimentalsys.UnimplementedFS
	root     *os.Root
	readOnly bool
	budget   *openBudget // the run's open files, all its mounts together; nil for no limit
}

var _ experimentalsys.FS = (*rootFS)(nil)

// newRootFS opens dir as a confined file system.
func newRootFS(dir string, readOnly bool, budget *openBudget) (*rootFS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootFS{root: root, readOnly: readOnly, budget: budget}, nil
}

// Close releases the root's descriptor; files opened from it stay usable.
func (r *rootFS) Close() error { return r.root.Close() }

// String names the host directory, for wazero's debug output.
func (r *rootFS) String() string { return r.root.Name() }

// OpenFile implements experimentalsys.FS.
func (r *rootFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	name := cleanGuestPath(p)
	writes := flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR) != 0
	if flag&experimentalsys.O_DIRECTORY != 0 && writes {
		return nil, experimentalsys.EISDIR
	}
	if r.readOnly && (writes || flag&(experimentalsys.O_CREAT|experimentalsys.O_TRUNC|experimentalsys.O_APPEND) != 0) {
		return nil, experimentalsys.EROFS
	}
	if flag&experimentalsys.O_NOFOLLOW != 0 {
		// os.Root follows a final symlink (inside the root) even with
		// O_NOFOLLOW, so honour the flag here.
		if fi, err := r.root.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, experimentalsys.ELOOP
		}
	}
	if errno := r.budget.take(); errno != 0 {
		return nil, errno
	}
	f, err := r.root.OpenFile(name, toOSOpenFlag(flag), perm&fs.ModePerm)
	if err != nil {
		r.budget.release()
		return nil, toErrno(err)
	}
	if errno := onlyFilesAndDirs(f); errno != 0 {
		_ = f.Close()
		r.budget.release()
		return nil, errno
	}
	rf, errno := newRootFile(r, name, flag, f)
	if errno != 0 {
		r.budget.release()
		return nil, errno
	}
	if r.budget == nil {
		return rf, 0
	}
	return &budgetFile{File: rf, budget: r.budget}, 0
}

// onlyFilesAndDirs refuses FIFOs, sockets and devices with EACCES: reading one
// could block a host goroutine past the run's deadline, or reach a device.
func onlyFilesAndDirs(f *os.File) experimentalsys.Errno {
	fi, err := f.Stat()
	if err != nil {
		return toErrno(err)
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return experimentalsys.EACCES
	}
	return 0
}

// Lstat implements experimentalsys.FS.
func (r *rootFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := r.root.Lstat(cleanGuestPath(p))
	if err != nil {
		return sys.Stat_t{}, toErrno(err)
	}
	return sys.NewStat_t(fi), 0
}

// Stat implements experimentalsys.FS.
func (r *rootFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := r.root.Stat(cleanGuestPath(p))
	if err != nil {
		return sys.Stat_t{}, toErrno(err)
	}
	return sys.NewStat_t(fi), 0
}

// Readlink implements experimentalsys.FS. Reading a link's text is harmless:
// following it still goes through the root.
func (r *rootFS) Readlink(p string) (string, experimentalsys.Errno) {
	dst, err := r.root.Readlink(cleanGuestPath(p))
	if err != nil {
		return "", toErrno(err)
	}
	return dst, 0
}

// Mkdir implements experimentalsys.FS.
func (r *rootFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return toErrno(r.root.Mkdir(cleanGuestPath(p), perm&fs.ModePerm))
}

// Chmod implements experimentalsys.FS.
func (r *rootFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return toErrno(r.root.Chmod(cleanGuestPath(p), perm&fs.ModePerm))
}

// Rename implements experimentalsys.FS.
func (r *rootFS) Rename(from, to string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return toErrno(r.root.Rename(cleanGuestPath(from), cleanGuestPath(to)))
}

// Rmdir implements experimentalsys.FS.
func (r *rootFS) Rmdir(p string) experimentalsys.Errno { return r.remove(p, true) }

// Unlink implements experimentalsys.FS.
func (r *rootFS) Unlink(p string) experimentalsys.Errno { return r.remove(p, false) }

// remove removes p, which must be a directory when dir is set (else ENOTDIR)
// and must not be one otherwise (else EISDIR).
func (r *rootFS) remove(p string, dir bool) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	name := cleanGuestPath(p)
	fi, err := r.root.Lstat(name)
	if err != nil {
		return toErrno(err)
	}
	switch {
	case dir && !fi.IsDir():
		return experimentalsys.ENOTDIR
	case !dir && fi.IsDir():
		return experimentalsys.EISDIR
	}
	return toErrno(r.root.Remove(name))
}

// Link implements experimentalsys.FS: always refused.
func (r *rootFS) Link(_, _ string) experimentalsys.Errno { return r.refuseLink() }

// Symlink implements experimentalsys.FS: always refused.
func (r *rootFS) Symlink(_, _ string) experimentalsys.Errno { return r.refuseLink() }

// refuseLink is the answer to making any link: EROFS on a read-only mount,
// else EPERM.
func (r *rootFS) refuseLink() experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return experimentalsys.EPERM
}

// Utimens implements experimentalsys.FS.
func (r *rootFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return r.chtimes(cleanGuestPath(p), atim, mtim)
}

// chtimes sets the times of name, keeping the current value of either one
// given as UTIME_OMIT.
func (r *rootFS) chtimes(name string, atim, mtim int64) experimentalsys.Errno {
	if atim == experimentalsys.UTIME_OMIT && mtim == experimentalsys.UTIME_OMIT {
		return 0
	}
	if atim == experimentalsys.UTIME_OMIT || mtim == experimentalsys.UTIME_OMIT {
		st, errno := r.Stat(name)
		if errno != 0 {
			return errno
		}
		if atim == experimentalsys.UTIME_OMIT {
			atim = st.Atim
		}
		if mtim == experimentalsys.UTIME_OMIT {
			mtim = st.Mtim
		}
	}
	return toErrno(r.root.Chtimes(name, time.Unix(0, atim), time.Unix(0, mtim)))
}

// cleanGuestPath turns the mount-relative path wazero hands over into a name
// os.Root accepts. A ".." left after cleaning is kept: os.Root refuses it.
func cleanGuestPath(p string) string {
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	if p == "" {
		return "."
	}
	return path.Clean(p)
}

// toErrno maps a host error to the errno the guest sees. An error that is no
// errno (os.Root's "path escapes from parent", an unsupported mode) becomes EPERM
// rather than wazero's catch-all EIO.
func toErrno(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return experimentalsys.UnwrapOSError(errno)
	}
	for _, known := range []error{fs.ErrNotExist, fs.ErrExist, fs.ErrPermission, fs.ErrClosed, fs.ErrInvalid} {
		if errors.Is(err, known) {
			return experimentalsys.UnwrapOSError(known)
		}
	}
	return experimentalsys.EPERM
}
