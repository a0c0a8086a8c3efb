// Package testhttp holds the raw HTTP requests and the go-sdk client that tests of the Streamable HTTP
// endpoint send (the guards in internal/httpguard, the server behind them in
// internal/server): MCP's headers, a POST, a GET, the answer's body. Only
// tests import it.
package testhttp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InitializeBody is an initialize request, the first a session sends.
const InitializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// SetMCPHeaders sets the Content-Type and Accept a Streamable HTTP client sends.
func SetMCPHeaders(req *http.Request) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
}

// PostInitialize POSTs InitializeBody to url with headers.
func PostInitialize(t testing.TB, url string, headers map[string]string) *http.Response {
	t.Helper()
	return Post(t, url, InitializeBody, headers)
}

// Post POSTs body to url with MCP's headers and headers.
func Post(t testing.TB, url, body string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	SetMCPHeaders(req)
	return Do(t, req, headers)
}

// Get GETs url with headers.
func Get(t testing.TB, url string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Do(t, req, headers)
}

// Do sends req with headers ("Host" sets the request's host), closing the
// answer's body when the test ends.
func Do(t testing.TB, req *http.Request, headers map[string]string) *http.Response {
	t.Helper()
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// ReadBody reads the whole body of resp.
func ReadBody(t testing.TB, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// Connect connects a go-sdk client to the Streamable HTTP endpoint at url,
// sending token as a bearer token when it is not empty; the session is
// closed when the test ends.
func Connect(t testing.TB, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}
