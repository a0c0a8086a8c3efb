package confine

import (
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAllSized: whatever size the file said it had, every byte is read,
// and a right size reads into one buffer of that size plus one.
func TestReadAllSized(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("0123456789", 100) // 1,000 bytes
	tests := []struct {
		name   string
		size   int64
		wantOK bool // the buffer was never grown
	}{
		{"size right", 1000, true},
		{"size unknown", -1, false},
		{"file grew since its stat", 10, false},
		{"file shrank since its stat", 5000, true},
		{"empty file said empty", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// OneByteReader: a read returns less than asked, as a pipe may.
			got, err := ReadAllSized(iotest.OneByteReader(strings.NewReader(text)), tt.size)
			if err != nil || string(got) != text {
				t.Fatalf("read %d bytes (error %v), want the %d written", len(got), err, len(text))
			}
			if grown := cap(got) != int(tt.size)+1; tt.wantOK && grown {
				t.Errorf("buffer of %d bytes for a size of %d: grown, want one of size+1", cap(got), tt.size)
			}
		})
	}
	got, err := ReadAllSized(iotest.ErrReader(iotest.ErrTimeout), 10)
	if err != iotest.ErrTimeout || len(got) != 0 {
		t.Errorf("a failing read gave %q, %v; want its error", got, err)
	}
}
