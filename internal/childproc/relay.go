package childproc

import (
	"bytes"
	"encoding/json"

	"github.com/hashicorp/go-hclog"
)

// MaxLogLine caps one line of a child's stderr as the server keeps it: a
// longer line is relayed cut at MaxLogLine, marked, and the rest of it
// dropped, so a child writing without line ends cannot grow the server's
// memory (issue 26, item 9).
const MaxLogLine = 64 << 10

// LogWriter is a child's stderr for log: its JSON log lines relayed at their
// level with their fields, any other line (a panic) as an error. Call Flush
// when the child has ended.
func LogWriter(log hclog.Logger) *RelayWriter { return &RelayWriter{log: log} }

// RelayWriter logs a child's stderr on log (see LogWriter). It keeps at most
// MaxLogLine bytes of the line in progress.
type RelayWriter struct {
	log hclog.Logger
	buf []byte
	// dropped counts the bytes of the line in progress beyond MaxLogLine.
	dropped int64
}

// Write relays the complete lines of p; it is safe for one writer at a time.
func (w *RelayWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		w.keep(part)
		if i < 0 {
			break
		}
		w.end()
		p = p[i+1:]
	}
	return n, nil
}

// keep adds part to the line in progress, up to MaxLogLine bytes.
func (w *RelayWriter) keep(part []byte) {
	room := MaxLogLine - len(w.buf)
	if len(part) > room {
		w.dropped += int64(len(part) - room)
		part = part[:room]
	}
	w.buf = append(w.buf, part...)
}

// end relays the line in progress and starts the next one.
func (w *RelayWriter) end() {
	if w.dropped > 0 {
		if w.log != nil {
			w.log.Error("helper log line cut", "line", string(w.buf), "cut_at_bytes", MaxLogLine, "dropped_bytes", w.dropped)
		}
	} else {
		w.line(w.buf)
	}
	w.buf, w.dropped = w.buf[:0], 0
}

// Flush relays a last line that has no line end.
func (w *RelayWriter) Flush() {
	if len(w.buf) > 0 || w.dropped > 0 {
		w.end()
	}
}

func (w *RelayWriter) line(b []byte) {
	if w.log == nil || len(bytes.TrimSpace(b)) == 0 {
		return
	}
	var entry map[string]any
	if json.Unmarshal(b, &entry) != nil {
		w.log.Error("helper", "line", string(b))
		return
	}
	msg, _ := entry["@message"].(string)
	lvl, _ := entry["@level"].(string)
	args := make([]any, 0, 2*len(entry))
	for k, v := range entry {
		if len(k) > 0 && k[0] != '@' {
			args = append(args, k, v)
		}
	}
	w.log.Log(hclog.LevelFromString(lvl), msg, args...)
}
