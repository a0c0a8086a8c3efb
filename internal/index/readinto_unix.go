//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// readFileInto reads the regular file at p into buf's storage (grown when the
// file does not fit) and returns the bytes read; errors are *fs.PathError, as
// those of os.ReadFile. It calls the system directly: an *os.File would make
// the descriptor non-blocking and offer it to the network poller, three more
// system calls per skill file than the read needs; and it stops when it has
// read the size the stat gave, without a read that returns the end of file.
// A file over max bytes (when max > 0) is an error wrapping a *tooLargeError,
// given before any byte is read when its stat shows it.
// O_NONBLOCK only keeps the
// open of a FIFO swapped in since discovery from blocking; the stat then
// refuses anything but a regular file.
func readFileInto(p string, buf []byte, max int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errNotRegular}
	}
	if max > 0 && st.Size > max {
		return nil, &fs.PathError{Op: "read", Path: p, Err: &tooLargeError{size: st.Size, limit: max}}
	}
	size := 0
	if st.Size > 0 && st.Size < 1<<30 {
		size = int(st.Size)
	}
	if cap(buf) < size+512 {
		buf = make([]byte, 0, size+512)
	}
	data := buf[:0]
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return data, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
		if max > 0 && int64(len(data)) > max { // grew since the stat
			return nil, &fs.PathError{Op: "read", Path: p, Err: &tooLargeError{size: int64(len(data)), limit: max}}
		}
		if len(data) == size && size > 0 {
			// The whole file as its stat gave it: a regular file ends there
			// unless it grew since, which the watcher reports. Not asking for
			// the end of file saves a system call per skill file.
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grow: the file is larger than its size said
		}
	}
}
