package httpguard

import (
	"net/http"
	"time"
)

// writeDeadlines gives each write of an answer writeTimeout to complete: a
// client that stops reading holds its connection at most that long, while a
// long tool call or an SSE stream idle between events is not cut.
func writeDeadlines(writeTimeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: writeTimeout}
		dw.arm()
		next.ServeHTTP(dw, r)
		dw.arm() // net/http flushes what is buffered after the handler returns
	})
}

// deadlineWriter sets the connection's write deadline before each write.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *deadlineWriter) arm() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) }

// Write implements http.ResponseWriter.
func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

// WriteHeader implements http.ResponseWriter.
func (w *deadlineWriter) WriteHeader(code int) {
	w.arm()
	w.ResponseWriter.WriteHeader(code)
}

// FlushError is what http.ResponseController.Flush calls.
func (w *deadlineWriter) FlushError() error {
	w.arm()
	return w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
