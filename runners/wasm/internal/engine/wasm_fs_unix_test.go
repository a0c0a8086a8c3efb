//go:build unix

package engine

import (
	"path/filepath"
	"syscall"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// TestRootFSRefusesFIFOs opens a FIFO nobody writes to: without care the open
// (or the read) would block the host goroutine for good.
func TestRootFSRefusesFIFOs(t *testing.T) {
	mount := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(mount, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tests := []struct {
		name     string
		readOnly bool
		flag     experimentalsys.Oflag
	}{
		{"read-only mount", true, experimentalsys.O_RDONLY},
		{"read-write mount, reading", false, experimentalsys.O_RDONLY},
		{"read-write mount, writing", false, experimentalsys.O_WRONLY},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := openRootFS(t, mount, tt.readOnly)

			f, errno := r.OpenFile("fifo", tt.flag, 0)

			if errno == 0 {
				_ = f.Close()
				t.Fatalf("open fifo: succeeded, want an error")
			}
		})
	}
}
