//go:build linux

package launch

import (
	"os"

	"golang.org/x/sys/unix"
)

// openDirNoSymlinks opens the directory at path (absolute, its symlinks
// already resolved) as a handle, failing when any component of the path
// is a symlink now.
func openDirNoSymlinks(path string) (*os.File, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS})
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
