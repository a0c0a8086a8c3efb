package httpguard_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
)

// guarded serves a go-sdk server with one tool behind Handler on a loopback
// httptest server. Its health report is the whole one only with "detail".
func guarded(t *testing.T, opts httpguard.Options) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "guarded", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echoes text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
		})
	ts := httptest.NewServer(httpguard.Handler(httpguard.Endpoint{
		MCP:    srv,
		Health: func(ready bool) any { return map[string]any{"status": "ok", "ready": ready, "detail": "all of it"} },
	}, opts))
	t.Cleanup(ts.Close)
	return ts
}

// connectHTTP connects a go-sdk client to the endpoint of ts.
func connectHTTP(t *testing.T, ts *httptest.Server, token string) (*mcp.ClientSession, error) {
	t.Helper()
	return testhttp.Connect(t, ts.URL+httpguard.MCPPath, token)
}
