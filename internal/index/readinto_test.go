//go:build unix

package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileInto reads skill files into a reused buffer: the bytes of the
// file whatever the buffer held, and the errors of os.ReadFile.
func TestReadFileInto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("0123456789", 10_000)
	for name, content := range map[string]string{"small.md": "small\n", "big.md": big, "empty.md": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, want string
		buf              []byte
		wantErr          error
	}{
		{name: "no buffer yet", file: "small.md", want: "small\n"},
		{name: "a buffer holding a longer file", file: "small.md", buf: []byte(big), want: "small\n"},
		{name: "a file larger than the buffer", file: "big.md", buf: make([]byte, 0, 16), want: big},
		{name: "an empty file", file: "empty.md", buf: []byte("stale"), want: ""},
		{name: "missing", file: "gone.md", wantErr: fs.ErrNotExist},
		{name: "a directory", file: "dir.md", wantErr: errNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readFileInto(filepath.Join(dir, tt.file), tt.buf, 0)
			if tt.wantErr != nil {
				var pathErr *fs.PathError
				if !errors.Is(err, tt.wantErr) || !errors.As(err, &pathErr) || pathErr.Path != filepath.Join(dir, tt.file) {
					t.Fatalf("got %v, want a *fs.PathError naming the file and wrapping %v", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("got %d bytes, %v; want %d bytes", len(got), err, len(tt.want))
			}
		})
	}
	t.Run("a FIFO swapped in since discovery does not block", func(t *testing.T) {
		fifo := filepath.Join(dir, "pipe.md")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		done := make(chan error, 1)
		go func() { _, err := readFileInto(fifo, nil, 0); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, errNotRegular) {
				t.Errorf("got %v, want %v", err, errNotRegular)
			}
		case <-time.After(30 * time.Second): // a safety net: the bug is blocking forever
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			t.Fatal("readFileInto blocked on a FIFO")
		}
	})
}
