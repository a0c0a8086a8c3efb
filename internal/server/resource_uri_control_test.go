package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// controlURIs are resources/read URIs that Go's %q quotes in a way JSON does
// not accept (\x01, \x7f, \v, \U000e0001): the go-sdk's ResourceNotFoundError
// built its data with %q, so the answer could not be encoded. The file://
// one matches no template, so the go-sdk answers it before any handler.
var controlURIs = []struct{ name, uri string }{
	{"control character", "skill://x\u0001"},
	{"DEL", "skill://x\u007f"},
	{"vertical tab", "skill://git/\vSKILL.md"},
	{"unprintable tag character", "skill://x\U000E0001"},
	{"no template matches", "file:///x\u0001"},
}

// checkNotFound checks that err is a -32602 whose data is {"uri": uri}.
func checkNotFound(t *testing.T, err error, uri string) {
	t.Helper()
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		t.Fatalf("ReadResource(%q): got %v, want a JSON-RPC error", uri, err)
	}
	if wire.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("ReadResource(%q): got code %d, want %d", uri, wire.Code, jsonrpc.CodeInvalidParams)
	}
	var data struct{ URI string }
	if err := json.Unmarshal(wire.Data, &data); err != nil || data.URI != uri {
		t.Errorf("ReadResource(%q): got data %s (%v), want the URI", uri, wire.Data, err)
	}
}

// TestControlCharacterURIOverSDKClients: resources/read of a URI holding a
// control character gets -32602 in valid JSON, and the session answers the
// next request, over HTTP with sessions and stateless HTTP (real go-sdk
// clients over a real HTTP server). The clients speak 2025-11-25: at
// 2026-07-28 the go-sdk client copies the URI into the Mcp-Name header, which
// net/http refuses to send with a control character (docs/UPSTREAM.md).
func TestControlCharacterURIOverSDKClients(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			ts := httpServer(t, mixedTree(), nil, httpguard.Options{Stateless: stateless})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tr := &mcp.StreamableClientTransport{Endpoint: ts.URL + httpguard.MCPPath, MaxRetries: -1}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "control-uri", Version: "1"}, nil).
				Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cs.Close() })
			for _, tc := range controlURIs {
				_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tc.uri})
				checkNotFound(t, err, tc.uri)
				if err := cs.Ping(ctx, nil); err != nil {
					t.Fatalf("%s: ping after the read: %v (the session died)", tc.name, err)
				}
			}
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://git/SKILL.md"})
			if err != nil || len(res.Contents) != 1 {
				t.Fatalf("a good read after them: %v", err)
			}
		})
	}
}

// TestControlCharacterURIOverStdio: the same over the stdio line transport,
// with raw JSON-RPC lines: every line answered is valid JSON, the read gets
// -32602 and the ping after it its answer.
func TestControlCharacterURIOverStdio(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, mixedTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Index: idx, Config: config.Default()})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(stdio.WithDeferredResults(context.Background()), &stdio.LineTransport{In: inR, Out: outW})
		_ = outW.Close()
	}()
	t.Cleanup(func() { _ = inW.Close(); <-done })
	lines := bufio.NewReader(outR)
	send := func(msg map[string]any) {
		t.Helper()
		msg["jsonrpc"] = "2.0"
		line, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inW.Write(append(line, '\n')); err != nil {
			t.Fatalf("writing %s: %v (the server stopped reading)", line, err)
		}
	}
	type answer struct {
		ID     int64           `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	// next reads the answer to id, skipping notifications; every line must be JSON.
	next := func(id int64) answer {
		t.Helper()
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				t.Fatalf("waiting for the answer to %d: %v (the session ended)", id, err)
			}
			var a answer
			if err := json.Unmarshal([]byte(line), &a); err != nil {
				t.Fatalf("line %q is not JSON: %v", line, err)
			}
			if strings.Contains(line, `"method":`) {
				continue
			}
			if a.ID != id {
				t.Fatalf("got the answer to %d, want %d: %s", a.ID, id, line)
			}
			return a
		}
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "1"}}})
	next(1)
	send(map[string]any{"method": "notifications/initialized"})
	id := int64(1)
	for _, tc := range controlURIs {
		id++
		send(map[string]any{"id": id, "method": "resources/read", "params": map[string]any{"uri": tc.uri}})
		a := next(id)
		if a.Error == nil {
			t.Fatalf("%s: got result %s, want an error", tc.name, a.Result)
		}
		checkNotFound(t, a.Error, tc.uri)
		id++
		send(map[string]any{"id": id, "method": "ping"})
		if a := next(id); a.Error != nil {
			t.Fatalf("%s: ping after the read: %v", tc.name, a.Error)
		}
	}
}

// TestControlCharacterURIOverRawStatelessHTTP: a stateless POST of the read
// gets a JSON answer holding the -32602, not an empty 200.
func TestControlCharacterURIOverRawStatelessHTTP(t *testing.T) {
	t.Parallel()
	ts := httpServer(t, mixedTree(), nil, httpguard.Options{Stateless: true})
	for _, tc := range controlURIs {
		body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": map[string]any{"uri": tc.uri}})
		if err != nil {
			t.Fatal(err)
		}
		resp := testhttp.Post(t, ts.URL+httpguard.MCPPath, string(body), map[string]string{"MCP-Protocol-Version": "2025-06-18"})
		text := testhttp.ReadBody(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: got HTTP %d %s", tc.name, resp.StatusCode, text)
		}
		payload := text
		if i := strings.Index(text, "data: "); i >= 0 { // an SSE answer
			payload = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
		}
		var a struct {
			ID    int64          `json:"id"`
			Error *jsonrpc.Error `json:"error"`
		}
		if err := json.Unmarshal([]byte(payload), &a); err != nil || a.Error == nil {
			t.Fatalf("%s: got body %q (%v), want a JSON-RPC error", tc.name, text, err)
		}
		checkNotFound(t, a.Error, tc.uri)
	}
}
