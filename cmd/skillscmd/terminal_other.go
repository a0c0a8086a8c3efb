//go:build !linux

package skillscmd

import (
	"io"
	"os"
)

// isTerminal reports whether r is a character device, which is a terminal
// where people run skills-mcp by hand (or /dev/null).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
