//go:build unix

package index

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestReadFileRefusesAFIFO: a FIFO declared as an asset must not block
// get_asset (and with it shutdown) forever.
func TestReadFileRefusesAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	owner := &core.Skill{Path: "s", ResourceDir: dir}
	done := make(chan error, 1)
	go func() { _, err := emptySnapshot().ReadFile(owner, "pipe", 1024); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, core.ErrAssetMissing) {
			t.Errorf("got %v, want an error saying it is not a regular file", err)
		}
	case <-time.After(30 * time.Second): // a safety net: the bug is blocking forever
		// Unblock the reader so the test binary can exit.
		if f, err := os.OpenFile(filepath.Join(dir, "pipe"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("ReadFile blocked on a FIFO")
	}
}
