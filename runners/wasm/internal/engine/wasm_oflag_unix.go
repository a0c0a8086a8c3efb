//go:build unix

package engine

import (
	"syscall"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// platformOpenFlag adds the open flags only unix spells. O_NONBLOCK is always
// set so that opening a FIFO cannot block the host; rootFS refuses anything
// but regular files and directories right after opening, and O_NONBLOCK does
// not change how those behave.
func platformOpenFlag(oflag experimentalsys.Oflag) int {
	flag := syscall.O_NONBLOCK
	if oflag&experimentalsys.O_DIRECTORY != 0 {
		flag |= syscall.O_DIRECTORY
	}
	if oflag&experimentalsys.O_DSYNC != 0 {
		flag |= oDSync
	}
	return flag
}
