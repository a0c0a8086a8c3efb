package sandbox

import (
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// CappedWriter keeps the first Limit bytes written to it and counts the rest. It
// never fails a write, so a chatty child is not killed by a broken pipe. It is safe
// for concurrent use.
type CappedWriter struct {
	limit     int64
	mu        sync.Mutex
	buf       []byte
	truncated bool
}

// NewCappedWriter returns a writer that keeps at most limit bytes; limit <= 0 keeps everything.
func NewCappedWriter(limit int64) *CappedWriter { return &CappedWriter{limit: limit} }

// Write implements io.Writer; it always reports len(p) written.
func (w *CappedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.limit <= 0 {
		w.buf = append(w.buf, p...)
		return len(p), nil
	}
	room := w.limit - int64(len(w.buf))
	if room <= 0 {
		if len(p) > 0 {
			w.truncated = true
		}
		return len(p), nil
	}
	if int64(len(p)) > room {
		w.buf = append(w.buf, p[:room]...)
		w.truncated = true
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// String returns what was kept.
func (w *CappedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

// Truncated reports whether bytes were dropped.
func (w *CappedWriter) Truncated() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.truncated
}

// TruncationNote is appended to a stream the cap cut, on its own line.
const TruncationNote = launch.TruncationNote
