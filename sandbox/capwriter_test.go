package sandbox

import (
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/launch"
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

// TestCapturedResult: the runners' result keeps what the caps kept and notes
// a cut stream with TruncationNote on its own line.
func TestCapturedResult(t *testing.T) {
	out, errw := NewCappedWriter(3), NewCappedWriter(10)
	_, _ = out.Write([]byte("abcdef"))
	_, _ = errw.Write([]byte("ok\n"))
	res := launch.CapturedResult(2, out, errw, 5)
	if res.ExitCode != 2 || res.Stdout != "abc\n"+TruncationNote || !res.StdoutTruncated || res.Stderr != "ok\n" || res.StderrTruncated || res.Duration != 5 {
		t.Errorf("got %+v", res)
	}
}
