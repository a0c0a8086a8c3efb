package eventbuf

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParseLines: whatever a crash or a stranger leaves in the file, parsing
// accounts for every non-blank line (an event or a skipped line) and every
// kept line decodes to the event returned for it.
func FuzzParseLines(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p := parseLines(data)
		nonBlank := 0
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				nonBlank++
			}
		}
		if got := len(p.events) + p.skipped; got != nonBlank {
			t.Fatalf("events %d + skipped %d = %d, want %d non-blank lines", len(p.events), p.skipped, got, nonBlank)
		}
		if len(p.lines) != len(p.events) {
			t.Fatalf("%d raw lines for %d events", len(p.lines), len(p.events))
		}
		for i, raw := range p.lines {
			if !bytes.HasSuffix(raw, []byte("\n")) || bytes.Count(raw, []byte("\n")) != 1 {
				t.Fatalf("raw line %q is not one newline-terminated line", raw)
			}
			ev, ok := decodeLine(raw[:len(raw)-1])
			if !ok || !reflect.DeepEqual(ev, p.events[i]) {
				t.Fatalf("raw line %q decodes to %v, want %v", raw, ev, p.events[i])
			}
		}
	})
}
