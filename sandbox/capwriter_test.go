package sandbox

import (
	"strings"
	"testing"
)

func TestCappedWriter(t *testing.T) {
	tests := []struct {
		name      string
		limit     int64
		writes    []string
		want      string
		truncated bool
	}{
		{"under the cap", 10, []string{"abc", "de"}, "abcde", false},
		{"exactly the cap", 5, []string{"abcde"}, "abcde", false},
		{"cut inside a write", 4, []string{"ab", "cdef"}, "abcd", true},
		{"writes after the cap", 2, []string{"ab", "c"}, "ab", true},
		{"no cap", 0, []string{strings.Repeat("x", 100)}, strings.Repeat("x", 100), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewCappedWriter(tt.limit)
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want all bytes accepted", s, n, err)
				}
			}
			if w.String() != tt.want || w.Truncated() != tt.truncated {
				t.Errorf("got %q truncated=%v, want %q truncated=%v", w.String(), w.Truncated(), tt.want, tt.truncated)
			}
		})
	}
}
