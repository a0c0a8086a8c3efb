//go:build !linux

package launch

import "os"

// openDirNoSymlinks is never reached where nothing confines a run.
func openDirNoSymlinks(path string) (*os.File, error) {
	return nil, &os.PathError{Op: "open", Path: path, Err: os.ErrInvalid}
}
