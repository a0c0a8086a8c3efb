package httpguard_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
)

// TestHTTPHealthProbe: with a token set, a GET of /healthz without any
// Authorization header (an orchestrator's probe) gets the status alone; with
// the token it gets the whole report.
func TestHTTPHealthProbe(t *testing.T) {
	t.Parallel()
	ts := guarded(t, httpguard.Options{Token: "s3cret-token"})
	resp := testhttp.Get(t, ts.URL+httpguard.HealthPath, nil)
	if body := testhttp.ReadBody(t, resp); resp.StatusCode != http.StatusOK || strings.TrimSpace(body) != `{"status":"ok"}` {
		t.Errorf("probe: got %d %s, want 200 with the status alone", resp.StatusCode, body)
	}
	resp = testhttp.Get(t, ts.URL+httpguard.HealthPath, map[string]string{"Authorization": "Bearer s3cret-token"})
	if body := testhttp.ReadBody(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"detail":`) {
		t.Errorf("with the token: got %d %s, want the whole report", resp.StatusCode, body)
	}
}

func TestHTTPBearerToken(t *testing.T) {
	t.Parallel()
	ts := guarded(t, httpguard.Options{Token: "s3cret-token"})
	tests := []struct {
		name       string
		header     string
		wantStatus int
	}{
		{"no header", "", http.StatusUnauthorized},
		{"wrong token", "Bearer nope", http.StatusUnauthorized},
		{"token prefix", "Bearer s3cret", http.StatusUnauthorized},
		{"token with a suffix", "Bearer s3cret-token2", http.StatusUnauthorized},
		{"basic scheme", "Basic s3cret-token", http.StatusUnauthorized},
		{"bare token", "s3cret-token", http.StatusUnauthorized},
		{"right token", "Bearer s3cret-token", http.StatusOK},
		{"scheme is case-insensitive", "bearer s3cret-token", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{httpguard.MCPPath, httpguard.HealthPath} {
				if path == httpguard.HealthPath && tt.header == "" {
					continue // TestHTTPHealthProbe
				}
				headers := map[string]string{}
				if tt.header != "" {
					headers["Authorization"] = tt.header
				}
				var resp *http.Response
				if path == httpguard.MCPPath {
					resp = testhttp.PostInitialize(t, ts.URL+path, headers)
				} else {
					resp = testhttp.Get(t, ts.URL+path, headers)
				}
				body := testhttp.ReadBody(t, resp)
				if resp.StatusCode != tt.wantStatus {
					t.Errorf("%s: got status %d (%s), want %d", path, resp.StatusCode, body, tt.wantStatus)
				}
				if tt.wantStatus == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s: WWW-Authenticate = %q, want a Bearer challenge", path, resp.Header.Get("WWW-Authenticate"))
				}
			}
		})
	}
	t.Run("client without the token cannot connect", func(t *testing.T) {
		if _, err := connectHTTP(t, ts, ""); err == nil {
			t.Fatal("connect without a token: got success, want an error")
		}
	})
	t.Run("client with the token works", func(t *testing.T) {
		cs, err := connectHTTP(t, ts, "s3cret-token")
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatalf("ListTools: %v", err)
		}
	})
}

func TestHTTPBodyLimit(t *testing.T) {
	t.Parallel()
	const limit = 1 << 10
	for _, stateless := range []bool{false, true} {
		ts := guarded(t, httpguard.Options{MaxBodyBytes: limit, Stateless: stateless})
		big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2*limit) + `"}}`
		tests := []struct {
			name       string
			body       io.Reader
			wantStatus int
		}{
			{"announced length over the limit", strings.NewReader(big), http.StatusRequestEntityTooLarge},
			{"chunked body over the limit", io.MultiReader(strings.NewReader(big)), http.StatusRequestEntityTooLarge},
			{"small body", strings.NewReader(testhttp.InitializeBody), http.StatusOK},
		}
		for _, tt := range tests {
			t.Run(tt.name+map[bool]string{false: " with sessions", true: " stateless"}[stateless], func(t *testing.T) {
				req, err := http.NewRequest(http.MethodPost, ts.URL+httpguard.MCPPath, tt.body)
				if err != nil {
					t.Fatal(err)
				}
				testhttp.SetMCPHeaders(req)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				if body := testhttp.ReadBody(t, resp); resp.StatusCode != tt.wantStatus {
					t.Errorf("got status %d (%s), want %d", resp.StatusCode, body, tt.wantStatus)
				}
			})
		}
	}
}

func TestHTTPHostAndOriginChecks(t *testing.T) {
	t.Parallel()
	ts := guarded(t, httpguard.Options{AllowedOrigins: []string{"https://app.example.com"}})
	own := ts.Listener.Addr().String() // 127.0.0.1:port
	port := own[strings.LastIndex(own, ":")+1:]
	tests := []struct {
		name       string
		host       string
		origin     string
		wantStatus int
	}{
		{"own address", "", "", http.StatusOK},
		{"localhost name", "localhost:" + port, "", http.StatusOK},
		{"IPv6 loopback", "[::1]:" + port, "", http.StatusOK},
		{"rebound name", "evil.example.com", "", http.StatusForbidden},
		{"rebound name with port", "evil.example.com:" + port, "", http.StatusForbidden},
		{"private address", "192.168.1.10:" + port, "", http.StatusForbidden},
		{"own origin", "", "http://" + own, http.StatusOK},
		{"foreign origin", "", "http://evil.example.com", http.StatusForbidden},
		{"other port on localhost", "", "http://127.0.0.1:1", http.StatusForbidden},
		{"opaque origin", "", "null", http.StatusForbidden},
		{"allowed origin", "", "https://app.example.com", http.StatusOK},
		{"rebound name and origin", "evil.example.com", "http://evil.example.com", http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{httpguard.MCPPath, httpguard.HealthPath} {
				headers := map[string]string{}
				if tt.origin != "" {
					headers["Origin"] = tt.origin
				}
				if tt.host != "" {
					headers["Host"] = tt.host
				}
				var resp *http.Response
				if path == httpguard.MCPPath {
					resp = testhttp.PostInitialize(t, ts.URL+path, headers)
				} else {
					resp = testhttp.Get(t, ts.URL+path, headers)
				}
				if body := testhttp.ReadBody(t, resp); resp.StatusCode != tt.wantStatus {
					t.Errorf("%s: got status %d (%s), want %d", path, resp.StatusCode, body, tt.wantStatus)
				}
			}
		})
	}
}

func TestIsLoopbackHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host string
		want bool
	}{
		{"localhost", true}, {"LOCALHOST:8080", true}, {"127.0.0.1", true}, {"127.1.2.3:80", true},
		{"::1", true}, {"[::1]:8080", true}, {"[::1]", true},
		{"", false}, {"0.0.0.0:8080", false}, {"[::]:8080", false}, {"10.0.0.1", false},
		{"localhost.evil.com", false}, {"127.0.0.1.nip.io", false}, {"example.com:80", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			if got := httpguard.IsLoopbackHost(tt.host); got != tt.want {
				t.Errorf("IsLoopbackHost(%q) = %v, want %v", tt.host, got, tt.want)
			}
		})
	}
}
