//go:build !unix

package index

import (
	"io"
	"io/fs"
	"os"
)

// readFileInto reads the regular file at p into buf's storage (grown when the
// file does not fit) and returns the bytes read; errors are those of
// os.ReadFile. A file over max bytes (when max > 0) is an error wrapping a
// *tooLargeError.
func readFileInto(p string, buf []byte, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errNotRegular}
	}
	if max > 0 && fi.Size() > max {
		return nil, &fs.PathError{Op: "read", Path: p, Err: &tooLargeError{size: fi.Size(), limit: max}}
	}
	size := 0
	if fi.Size() > 0 && fi.Size() < 1<<30 {
		size = int(fi.Size())
	}
	if cap(buf) < size+512 {
		buf = make([]byte, 0, size+512)
	}
	data := buf[:0]
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if max > 0 && int64(len(data)) > max { // grew since the stat
			return nil, &fs.PathError{Op: "read", Path: p, Err: &tooLargeError{size: int64(len(data)), limit: max}}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grow: the file is larger than its size said
		}
	}
}
