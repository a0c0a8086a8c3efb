package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
)

// /readyz says ready or not, and nothing else, without a token even when one
// is required; the index must be built and HTTPOptions.Ready agree.
func TestReadyz(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		ready     func() bool
		pending   bool // the index is not built yet
		headers   map[string]string
		wantCode  int
		wantState string
	}{
		{name: "no readiness function", wantCode: http.StatusOK, wantState: "ready"},
		{name: "ready", ready: func() bool { return true }, wantCode: http.StatusOK, wantState: "ready"},
		{name: "not at the pin", ready: func() bool { return false }, wantCode: http.StatusServiceUnavailable, wantState: "not ready"},
		{name: "a wrong token changes nothing", ready: func() bool { return false }, headers: map[string]string{"Authorization": "Bearer wrong"},
			wantCode: http.StatusServiceUnavailable, wantState: "not ready"},
		{name: "index not built", pending: true, wantCode: http.StatusServiceUnavailable, wantState: "not ready"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			configure := func(o *server.Options) { o.IndexPending = tt.pending }
			ts := httpServer(t, specTree(), configure, httpguard.Options{Token: "a-long-enough-token-0123", Ready: tt.ready})
			resp := testhttp.Get(t, ts.URL+httpguard.ReadyPath, tt.headers)
			body := testhttp.ReadBody(t, resp)
			if resp.StatusCode != tt.wantCode || strings.TrimSpace(body) != `{"status":"`+tt.wantState+`"}` {
				t.Errorf("got %d %s, want %d {\"status\":%q}", resp.StatusCode, body, tt.wantCode, tt.wantState)
			}
			// The status with details still needs the token.
			if resp := testhttp.Get(t, ts.URL+httpguard.HealthPath, map[string]string{"Authorization": "Bearer wrong"}); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("/healthz with a wrong token: %d, want 401", resp.StatusCode)
			}
		})
	}
}
