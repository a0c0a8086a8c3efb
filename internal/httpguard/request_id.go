package httpguard

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// withRequestID puts the JSON-RPC id of a POSTed single message into the
// request's context (internal/telemetry.RequestID), where the request span
// finds it: in stateless mode the go-sdk serves each POST on a session
// connected with the request's context, whose values reach the handlers.
// (With sessions the connection's context is the first request's, so this
// is for stateless mode only.) A batch carries several ids and gets none.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		msg, ok, err := peekMessage(r)
		if err != nil {
			http.Error(w, "Bad Request: reading the request body failed", http.StatusBadRequest)
			return
		}
		if ok && len(msg.ID) > 0 {
			if id := renderID(msg.ID); id != "" {
				r = r.WithContext(telemetry.WithRequestID(r.Context(), id))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// renderID is a JSON-RPC id as jsonrpc.request.id records it: a string's
// text, a number's digits; null is no id.
func renderID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if text := strings.TrimSpace(string(raw)); text != "null" {
		return text
	}
	return ""
}
