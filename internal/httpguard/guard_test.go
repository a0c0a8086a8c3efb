package httpguard

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestCheckOriginOnAnyListener drives the guard with the listener address a
// real server would put in the request context, so non-loopback listeners are
// covered without binding one.
func TestCheckOriginOnAnyListener(t *testing.T) {
	t.Parallel()
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	public := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}
	tests := []struct {
		name       string
		listener   net.Addr
		host       string
		origin     string
		wantStatus int
	}{
		{"loopback listener, loopback host", loopback, "127.0.0.1:8080", "", http.StatusOK},
		{"loopback listener, rebound host", loopback, "evil.example.com:8080", "", http.StatusForbidden},
		{"public listener, any host", public, "skills.internal.example.com", "", http.StatusOK},
		{"public listener, own origin", public, "skills.example.com", "https://skills.example.com", http.StatusOK},
		{"public listener, own origin with default port", public, "skills.example.com:443", "https://skills.example.com", http.StatusOK},
		{"public listener, foreign origin", public, "skills.example.com", "https://evil.example.com", http.StatusForbidden},
		{"public listener, same host other scheme port", public, "skills.example.com", "https://skills.example.com:8443", http.StatusForbidden},
		{"public listener, allowed origin", public, "skills.example.com", "https://app.example.com", http.StatusOK},
		{"no listener address", nil, "anything", "", http.StatusOK},
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	h := checkOrigin([]string{"https://app.example.com"}, ok)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.listener != nil {
				req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tt.listener))
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Errorf("got status %d (%s), want %d", rec.Code, strings.TrimSpace(rec.Body.String()), tt.wantStatus)
			}
		})
	}
}

// FuzzOriginAllowed: with no allow list, an accepted origin is an http(s) URL
// whose host is the request's host, whatever the input.
func FuzzOriginAllowed(f *testing.F) {
	f.Add("http://127.0.0.1:8080", "127.0.0.1:8080")
	f.Add("https://Skills.Example.com", "skills.example.com:443")
	f.Add("null", "localhost")
	f.Add("http://evil.example.com@127.0.0.1", "127.0.0.1")
	f.Fuzz(func(t *testing.T, origin, host string) {
		if !originAllowed(origin, host, nil) {
			return
		}
		u, err := url.Parse(origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("originAllowed(%q, %q): accepted a non-http origin", origin, host)
		}
		if !strings.EqualFold(u.Hostname(), strings.Trim(hostOnly(host), "[]")) {
			t.Fatalf("originAllowed(%q, %q): origin host %q is not the request host", origin, host, u.Hostname())
		}
	})
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
