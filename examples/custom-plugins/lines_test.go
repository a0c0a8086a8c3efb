package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/sink/sinktest"
)

// TestLinesSinkConformance runs the lines sink through the suite every sink passes.
func TestLinesSinkConformance(t *testing.T) {
	sinktest.Run(t, sinktest.Harness{
		New: func(t *testing.T) core.Sink {
			s, err := newLinesSink(filepath.Join(t.TempDir(), "events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Delivered: func(t *testing.T, s core.Sink) []core.Event {
			f, err := os.Open(s.(*linesSink).path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var evs []core.Event
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var ev core.Event
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					t.Fatalf("line %q is not one event: %v", sc.Text(), err)
				}
				evs = append(evs, ev)
			}
			return evs
		},
	})
}

func TestLinesSinkNeedsItsFile(t *testing.T) {
	if _, err := newLinesSink(""); err == nil {
		t.Error("newLinesSink(\"\") = nil error, want one naming plugins.sinks.lines.file")
	}
}
