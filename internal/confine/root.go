package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Root is one directory that the files of its skills are confined to: a
// skills directory, or the folder of a skill installed through a link leading
// out of it (resolved once, when the tree was indexed). Every open goes
// through an os.Root on the directory at the moment of use, so a folder
// replaced since indexing by a symlink leading out of it, a `..` or an
// absolute link is refused, and O_NONBLOCK keeps a FIFO swapped in from
// blocking (anything but a regular file is refused). The directory itself is
// opened anew at each use, by its path, as a reader that knew only the path
// would. A Root is immutable and safe for concurrent use.
type Root struct{ dir string }

// NewRoot returns the Root of dir, an absolute, clean directory (that need
// not exist yet).
func NewRoot(dir string) *Root { return &Root{dir: dir} }

// Dir is the directory the Root confines to.
func (r *Root) Dir() string { return r.dir }

// rel returns abs relative to the root, and whether it lies inside.
func (r *Root) rel(abs string) (string, bool) {
	if r.dir == "" || !Within(r.dir, abs) {
		return "", false
	}
	rel, err := filepath.Rel(r.dir, abs)
	return rel, err == nil
}

// Open opens the regular file at abs through the root and returns it with
// its size and modification time as its stat found them. A path outside the
// root (never the case for an indexed skill's file) is opened as it is.
func (r *Root) Open(abs string) (*os.File, fs.FileInfo, error) {
	var f *os.File
	var err error
	if rel, ok := r.rel(abs); ok {
		var root *os.Root
		if root, err = os.OpenRoot(r.dir); err != nil {
			return nil, nil, err
		}
		defer root.Close()
		f, err = root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	} else {
		f, err = os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	return regular(f, abs)
}

// ReadFile reads the file at abs through Open, refusing one over max bytes
// (when max > 0) before any byte is read, and again if it grew since: the
// error is then a *TooLargeError.
func (r *Root) ReadFile(abs string, max int64) ([]byte, error) {
	f, fi, err := r.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCapped(f, fi.Size(), max)
}

// OpenDir opens dir, a directory inside the root (an Agent Skill's folder, a
// tree skill's resource directory), as an os.Root through the root, so that
// the directory itself is confined at the moment of use too: replaced by a
// symlink leading out of the root, it is refused. A directory outside the
// root (an installed skill's folder, reached through a link at indexing) is
// opened as it is.
func (r *Root) OpenDir(dir string) (*os.Root, error) {
	rel, ok := r.rel(dir)
	if !ok {
		return os.OpenRoot(dir)
	}
	top, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, err
	}
	defer top.Close()
	return top.OpenRoot(rel)
}

// OpenIn opens file (slash-separated, relative) of dir, a directory OpenDir
// accepts, confined to both: to the root as OpenDir is, and to dir. It must
// be a regular file; an absent one is an error wrapping fs.ErrNotExist.
func (r *Root) OpenIn(dir, file string) (*os.File, fs.FileInfo, error) {
	root, err := r.OpenDir(dir)
	if err != nil {
		return nil, nil, &DirError{Err: err}
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.FromSlash(file), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	return regular(f, file)
}

// StatIn stats file of dir as OpenIn would open it, without opening it.
func (r *Root) StatIn(dir, file string) (fs.FileInfo, error) {
	root, err := r.OpenDir(dir)
	if err != nil {
		return nil, &DirError{Err: err}
	}
	defer root.Close()
	fi, err := root.Stat(filepath.FromSlash(file))
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "stat", Path: file, Err: ErrNotRegular}
	}
	return fi, nil
}

// ErrNotRegular is the error of a path that names something other than a
// regular file (a directory, a FIFO, a device).
var ErrNotRegular = errors.New("not a regular file")

// DirError is the error of a directory OpenDir refused or could not open.
type DirError struct{ Err error }

// Error says the directory could not be opened, and why.
func (e *DirError) Error() string { return "opening resource directory: " + e.Err.Error() }

// Unwrap returns why the directory could not be opened, for errors.Is and errors.As.
func (e *DirError) Unwrap() error { return e.Err }

// regular returns f with its stat when it is a regular file, else closes it.
func regular(f *os.File, name string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, fi, nil
}

// TooLargeError is a file over the bound it was read with.
type TooLargeError struct{ Size, Limit int64 }

// Error gives the file's size and the limit it is over.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the limit of %d", e.Size, e.Limit)
}

// ReadCapped reads r whole, a file whose stat said it holds size bytes,
// refusing more than max bytes (when max > 0) before reading when size says
// so, and after when it grew: the error is then a *TooLargeError.
func ReadCapped(r io.Reader, size, max int64) ([]byte, error) {
	if max > 0 && size > max {
		return nil, &TooLargeError{Size: size, Limit: max}
	}
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	data, err := ReadAllSized(r, size)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(data)) > max {
		return nil, &TooLargeError{Size: int64(len(data)), Limit: max}
	}
	return data, nil
}

// ReadAllSized is io.ReadAll starting from a buffer of the size the file
// said it has (one byte more, to see the end without growing): reading a
// whole tree's bodies with io.ReadAll's doubling from 512 bytes allocated
// about five times the bytes read. A file that grew since its stat still
// reads whole; size < 0 starts small.
func ReadAllSized(r io.Reader, size int64) ([]byte, error) {
	n := 512
	if size >= 0 && size < 1<<30 {
		n = int(size) + 1
	}
	data := make([]byte, 0, n)
	for {
		m, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+m]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
