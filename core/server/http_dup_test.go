package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core/server"
)

// TestHTTPDuplicateIDInFlight: in a session, a request reusing the id of one
// still running gets an answer at once, an error with that id, and the first
// still completes (issue 16, item 14, on HTTP: the go-sdk's HTTP transport
// holds it; the stdio transport needed the fix).
func TestHTTPDuplicateIDInFlight(t *testing.T) {
	ts := httpServer(t, scriptTree(), func(o *server.Options) {
		o.Config.Scripts.AllowRemote = true
		o.Config.Scripts.TimeoutSeconds = 1
		o.Runners = shellRunners(t, o.Config)
	}, server.HTTPOptions{})
	resp := postInitialize(t, ts.URL+server.MCPPath, nil)
	readBody(t, resp)
	session := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	readBody(t, post(t, ts.URL+server.MCPPath, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session))

	slow := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+server.MCPPath, strings.NewReader(
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_script","arguments":{"skill_path":"tools/deploy","file":"scripts/slow.sh","args":{}}}}`))
		setMCPHeaders(req)
		for k, v := range session {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req) // a safety net
		if err != nil {
			slow <- err.Error()
			return
		}
		var b strings.Builder
		_, _ = readAll(&b, resp)
		slow <- b.String()
	}()
	// The slow call is in flight once its script has started: poll (bounded)
	// with the same id until the answer is the duplicate error.
	// The bound is generous: on a loaded machine the script may take seconds to start.
	var got string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+server.MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"ping"}`))
		setMCPHeaders(req)
		for k, v := range session {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req) // a safety net
		if err != nil {
			t.Fatalf("a ping reusing the id of a call in flight got no answer: %v", err)
		}
		var b strings.Builder
		_, _ = readAll(&b, resp)
		if got = b.String(); strings.Contains(got, "-32600") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(got, `"id":7`) || !strings.Contains(got, "-32600") {
		t.Fatalf("a ping reusing the id of a call in flight: got %s, want -32600 with id 7", got)
	}
	if body := <-slow; !strings.Contains(body, `"id":7`) || !strings.Contains(body, "result") {
		t.Errorf("the slow call: got %s, want its result", body)
	}
}

func readAll(b *strings.Builder, resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	return io.Copy(b, resp.Body)
}
