package config

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParse: Parse never panics, and each problem it reports names the file
// and a line of the input (or the line just past it, where YAML reports an
// unexpected end).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"", "matching:\n  min_score: 0.5\n", "scripts:\n  runners:\n    .sh: bash\n",
		"a: &x [1]\nb: *x\n", "matching: [\n", "scripts:\n  enabled: yes\n  enabled: no\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseStrict("config.yaml", data)
		lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + 2 // YAML breaks lines at \r too
		var invalid *Error
		switch {
		case errors.As(err, &invalid):
			for _, p := range invalid.Problems {
				if p.File != "config.yaml" || p.Line < 1 || p.Line > lines {
					t.Errorf("problem %+v: want the file and a line in 1..%d", p, lines)
				}
			}
		case err != nil:
			t.Errorf("got %T %v, want an *Error", err, err)
		default:
			for _, p := range got.Problems {
				if p.Line < 1 || p.Line > lines {
					t.Errorf("warning %+v: want a line in 1..%d", p, lines)
				}
			}
		}
	})
}
