package eventbuf

import (
	"bytes"
	"encoding/json"

	"github.com/skills-mcp/skills-mcp/core"
)

// parsed is the content of a buffer file.
type parsed struct {
	events  []core.Event
	lines   [][]byte // the raw line of each event, newline-terminated
	skipped int      // non-blank lines that hold no event
}

// parseLines splits data into lines and decodes each as an event. Blank lines
// are ignored; a line that is not a JSON object with a type is counted in
// skipped and otherwise ignored. The lines kept share data's bytes (all but a
// last line without its newline), so data must not be modified afterwards.
func parseLines(data []byte) parsed {
	var p parsed
	for len(data) > 0 {
		line, withNL := data, []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, withNL, data = data[:i], data[:i+1:i+1], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ev, ok := decodeLine(line)
		if !ok {
			p.skipped++
			continue
		}
		p.events = append(p.events, ev)
		if withNL == nil {
			withNL = append(bytes.Clone(line), '\n')
		}
		p.lines = append(p.lines, withNL)
	}
	return p
}

// decodeLine decodes one line; it holds an event only if it is a JSON object
// with a non-empty type.
func decodeLine(line []byte) (core.Event, bool) {
	var ev core.Event
	if err := json.Unmarshal(line, &ev); err != nil || ev.Type == "" {
		return core.Event{}, false
	}
	return ev, true
}
