package server_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
)

// TestHTTPDuplicateIDInFlight: in a session, a request reusing the id of one
// still running gets an answer at once, an error with that id, and the first
// still completes (issue 16, item 14, on HTTP: the go-sdk's HTTP transport
// holds it; the stdio transport needed the fix).
//
// The slow call's script marks that it started, then holds until the test
// releases it: the call is in flight, whatever the machine's load, from the
// mark until the release. (Polling with pings instead raced: a ping sent
// before the call arrived made the call itself the duplicate.)
func TestHTTPDuplicateIDInFlight(t *testing.T) {
	t.Parallel()
	marks := t.TempDir()
	started, release := filepath.Join(marks, "started"), filepath.Join(marks, "release")
	tree := scriptTree()
	tree["tools/deploy/scripts/slow.sh"] = ": > '" + started + "'\nwhile [ ! -e '" + release + "' ]; do sleep 0.05; done\necho released\n"
	ts := httpServer(t, tree, func(o *server.Options) {
		o.Config.Scripts.AllowRemote = true
		o.Config.Scripts.TimeoutSeconds = 120 // a safety net: the test releases the script
		o.Runners = shellRunners(t, o.Config)
	}, httpguard.Options{})
	resp := testhttp.PostInitialize(t, ts.URL+httpguard.MCPPath, nil)
	testhttp.ReadBody(t, resp)
	session := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	testhttp.ReadBody(t, testhttp.Post(t, ts.URL+httpguard.MCPPath, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session))

	slow := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+httpguard.MCPPath, strings.NewReader(
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_script","arguments":{"skill_path":"tools/deploy","file":"scripts/slow.sh","args":{}}}}`))
		testhttp.SetMCPHeaders(req)
		for k, v := range session {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Timeout: 180 * time.Second}).Do(req) // a safety net
		if err != nil {
			slow <- err.Error()
			return
		}
		var b strings.Builder
		_, _ = readAll(&b, resp)
		slow <- b.String()
	}()
	defer func() { _ = os.WriteFile(release, nil, 0o644) }() // never leave the script holding
	// The slow call is in flight once its script has started (bounded wait, a
	// safety net: on a loaded machine the script may take seconds to start).
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case body := <-slow:
			t.Fatalf("the slow call answered before its script started: %s", body)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow call's script did not start within 60 s")
		}
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+httpguard.MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"ping"}`))
	testhttp.SetMCPHeaders(req)
	for k, v := range session {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req) // a safety net
	if err != nil {
		t.Fatalf("a ping reusing the id of a call in flight got no answer: %v", err)
	}
	var b strings.Builder
	_, _ = readAll(&b, resp)
	if got := b.String(); !strings.Contains(got, `"id":7`) || !strings.Contains(got, "-32600") {
		t.Fatalf("a ping reusing the id of a call in flight: got %s, want -32600 with id 7", got)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if body := <-slow; !strings.Contains(body, `"id":7`) || !strings.Contains(body, "result") || !strings.Contains(body, "released") {
		t.Errorf("the slow call: got %s, want its result", body)
	}
}

func readAll(b *strings.Builder, resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	return io.Copy(b, resp.Body)
}
