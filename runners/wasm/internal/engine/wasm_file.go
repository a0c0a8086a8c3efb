package engine

import (
	"io"
	"io/fs"
	"os"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	experimentalsysfs "github.com/tetratelabs/wazero/experimental/sysfs"
)

// rootFile is a host file opened through a rootFS. Reading, seeking and listing
// are wazero's own fs.File adapter over the *os.File; rootFile adds what the
// adapter leaves out (append, truncate, sync, times) and refuses writes on a
// read-only mount. Re-opening (to rewind a directory or toggle append) goes
// through the same root, never through a host path.
type rootFile struct {
	experimentalsys.File // wazero's adapter over file
	fs                   *rootFS
	name                 string
	flag                 experimentalsys.Oflag
	file                 *os.File // the descriptor the adapter starts with; the same for non-directories
}

var _ experimentalsys.File = (*rootFile)(nil)

// newRootFile wraps f, just opened as name through fs.root with flag.
func newRootFile(fsys *rootFS, name string, flag experimentalsys.Oflag, f *os.File) (*rootFile, experimentalsys.Errno) {
	adapted, errno := adaptFile(fsys.root, name, f)
	if errno != 0 {
		_ = f.Close()
		return nil, errno
	}
	return &rootFile{File: adapted, fs: fsys, name: name, flag: flag, file: f}, 0
}

// adaptFile hands f to wazero's fs.FS adapter. Its first Open returns f itself;
// later ones (a directory rewind) open name again through root.
func adaptFile(root *os.Root, name string, f *os.File) (experimentalsys.File, experimentalsys.Errno) {
	opener := &firstThenRoot{root: root, first: f}
	return (&experimentalsysfs.AdaptFS{FS: opener}).OpenFile(name, experimentalsys.O_RDONLY, 0)
}

// firstThenRoot is an fs.FS whose first Open returns an already open file and
// whose later Opens go through the root.
type firstThenRoot struct {
	root  *os.Root
	first *os.File
}

// Open implements fs.FS.
func (o *firstThenRoot) Open(name string) (fs.File, error) {
	if f := o.first; f != nil {
		o.first = nil
		return f, nil
	}
	return o.root.Open(name)
}

// IsAppend implements experimentalsys.File.
func (f *rootFile) IsAppend() bool { return f.flag&experimentalsys.O_APPEND != 0 }

// SetAppend implements experimentalsys.File by re-opening the same file through
// the root with the new flag, keeping the offset.
func (f *rootFile) SetAppend(enable bool) experimentalsys.Errno {
	if errno := f.writable(); errno != 0 {
		return errno
	}
	flag := f.flag &^ (experimentalsys.O_CREAT | experimentalsys.O_TRUNC | experimentalsys.O_EXCL | experimentalsys.O_APPEND)
	if enable {
		flag |= experimentalsys.O_APPEND
	}
	offset, err := f.file.Seek(0, io.SeekCurrent)
	if err != nil {
		return toErrno(err)
	}
	nf, err := f.fs.root.OpenFile(f.name, toOSOpenFlag(flag), 0)
	if err != nil {
		return toErrno(err)
	}
	if errno := sameFile(f.file, nf); errno != 0 {
		_ = nf.Close()
		return errno
	}
	if _, err := nf.Seek(offset, io.SeekStart); err != nil {
		_ = nf.Close()
		return toErrno(err)
	}
	adapted, errno := adaptFile(f.fs.root, f.name, nf)
	if errno != 0 {
		_ = nf.Close()
		return errno
	}
	_ = f.File.Close()
	f.File, f.file, f.flag = adapted, nf, flag
	return 0
}

// sameFile reports ENOENT when b is no longer the file a was (it was replaced).
func sameFile(a, b *os.File) experimentalsys.Errno {
	ai, err := a.Stat()
	if err != nil {
		return toErrno(err)
	}
	bi, err := b.Stat()
	if err != nil {
		return toErrno(err)
	}
	if !os.SameFile(ai, bi) {
		return experimentalsys.ENOENT
	}
	return 0
}

// Write implements experimentalsys.File.
func (f *rootFile) Write(buf []byte) (int, experimentalsys.Errno) {
	if errno := f.writable(); errno != 0 {
		return 0, errno
	}
	return f.File.Write(buf)
}

// Pwrite implements experimentalsys.File.
func (f *rootFile) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	if errno := f.writable(); errno != 0 {
		return 0, errno
	}
	return f.File.Pwrite(buf, off)
}

// Truncate implements experimentalsys.File.
func (f *rootFile) Truncate(size int64) experimentalsys.Errno {
	if errno := f.writableFile(); errno != 0 {
		return errno
	}
	if size < 0 {
		return experimentalsys.EINVAL
	}
	return toErrno(f.file.Truncate(size))
}

// Sync implements experimentalsys.File.
func (f *rootFile) Sync() experimentalsys.Errno {
	if f.fs.readOnly {
		return 0
	}
	if isDir, errno := f.IsDir(); errno != 0 || isDir {
		return errno
	}
	return toErrno(f.file.Sync())
}

// Datasync implements experimentalsys.File.
func (f *rootFile) Datasync() experimentalsys.Errno { return f.Sync() }

// Utimens implements experimentalsys.File.
func (f *rootFile) Utimens(atim, mtim int64) experimentalsys.Errno {
	if errno := f.writable(); errno != 0 {
		return errno
	}
	return f.fs.chtimes(f.name, atim, mtim)
}

// writable refuses changes on a read-only mount.
func (f *rootFile) writable() experimentalsys.Errno {
	if f.fs.readOnly {
		return experimentalsys.EROFS
	}
	return 0
}

// writableFile is writable for a regular (non-directory) open file.
func (f *rootFile) writableFile() experimentalsys.Errno {
	if errno := f.writable(); errno != 0 {
		return errno
	}
	isDir, errno := f.IsDir()
	switch {
	case errno != 0:
		return errno
	case isDir:
		return experimentalsys.EISDIR
	}
	return 0
}
