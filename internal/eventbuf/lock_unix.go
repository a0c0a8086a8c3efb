//go:build unix

package eventbuf

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile opens (creating) path and takes an exclusive flock on it, waiting
// for it unless try is set; ok is false when try found it held. The lock is
// the kernel's: it ends with unlock or with the process, so a crashed holder
// never leaves it taken.
func lockFile(path string, try bool) (unlock func(), ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("opening lock %s: %w", path, err)
	}
	how := unix.LOCK_EX
	if try {
		how |= unix.LOCK_NB
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			break
		}
	}
	if err == unix.EWOULDBLOCK && try {
		_ = f.Close()
		return nil, false, nil
	}
	if err != nil {
		_ = f.Close()
		return nil, false, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		_ = f.Close()
	}, true, nil
}
