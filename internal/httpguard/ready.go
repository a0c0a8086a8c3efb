package httpguard

import (
	"io"
	"net/http"
)

// ReadyPath answers readiness probes without a token: ready or not, and
// nothing else.
const ReadyPath = "/readyz"

// readyz answers GET and HEAD at ReadyPath before any token check: 200
// {"status":"ready"} or 503 {"status":"not ready"}, which is all an
// unauthenticated caller learns. Every other request goes to next.
func readyz(ready func() bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != ReadyPath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if !ready() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"not ready"}`+"\n")
			return
		}
		_, _ = io.WriteString(w, `{"status":"ready"}`+"\n")
	})
}
