package server

import (
	"io"
	"net/http"
)

// ReadyPath answers readiness probes without a token: ready or not, and
// nothing else.
const ReadyPath = "/readyz"

// ready reports whether this replica serves what it should: the index is
// built, and HTTPOptions.Ready (git mode: the pinned commit is served and,
// with verification, verified) says so.
func (s *Server) ready(fn func() bool) bool {
	select {
	case <-s.loaded:
	default:
		return false
	}
	if s.loadErr != nil {
		return false
	}
	return fn == nil || fn()
}

// readyz answers GET and HEAD at ReadyPath before any token check: 200
// {"status":"ready"} or 503 {"status":"not ready"}, which is all an
// unauthenticated caller learns. Every other request goes to next.
func (s *Server) readyz(fn func() bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != ReadyPath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if !s.ready(fn) {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"not ready"}`+"\n")
			return
		}
		_, _ = io.WriteString(w, `{"status":"ready"}`+"\n")
	})
}
