package engine

import (
	"os"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// toOSOpenFlag maps wazero's portable open flags to os.OpenFile flags. O_NOFOLLOW
// is handled by rootFS itself, and the guest's O_NONBLOCK is dropped: only
// regular files and directories are opened.
func toOSOpenFlag(oflag experimentalsys.Oflag) int {
	var flag int
	switch oflag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY) {
	case experimentalsys.O_RDWR:
		flag = os.O_RDWR
	case experimentalsys.O_WRONLY:
		flag = os.O_WRONLY
	default:
		flag = os.O_RDONLY
	}
	if oflag&experimentalsys.O_APPEND != 0 {
		flag |= os.O_APPEND
	}
	if oflag&experimentalsys.O_CREAT != 0 {
		flag |= os.O_CREATE
	}
	if oflag&experimentalsys.O_EXCL != 0 {
		flag |= os.O_EXCL
	}
	if oflag&experimentalsys.O_SYNC != 0 {
		flag |= os.O_SYNC
	}
	if oflag&experimentalsys.O_TRUNC != 0 {
		flag |= os.O_TRUNC
	}
	return flag | platformOpenFlag(oflag)
}
