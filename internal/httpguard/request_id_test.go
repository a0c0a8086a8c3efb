package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// TestWithRequestID: the id of a single POSTed message reaches the handler's
// context as jsonrpc.request.id renders it, and the body is left whole.
func TestWithRequestID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"integer", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, "7"},
		{"string", `{"jsonrpc":"2.0","id":"req-1","method":"tools/list"}`, "req-1"},
		{"null", `{"jsonrpc":"2.0","id":null,"method":"x"}`, ""},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]`, ""},
		{"not JSON", `{"id":`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, body string
			h := withRequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = telemetry.RequestID(r.Context())
				b := new(strings.Builder)
				_, _ = io.Copy(b, r.Body)
				body = b.String()
			}))
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, MCPPath, strings.NewReader(tt.body)))
			if got != tt.want {
				t.Errorf("id %q, want %q", got, tt.want)
			}
			if body != tt.body {
				t.Errorf("the handler read %q, want the body whole", body)
			}
		})
	}
}
