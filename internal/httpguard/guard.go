package httpguard

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// requireToken answers 401 to a request without "Authorization: Bearer token".
// The comparison is constant-time over SHA-256 digests, so neither the token
// nor its length leaks through timing. An empty token disables the check.
//
// The token is a static one: the server offers no OAuth. Its challenge is a
// bare Bearer (RFC 6750 §3: no error code when no credentials came;
// invalid_token when a wrong one did), without realm or resource_metadata,
// the parameters MCP clients take as the sign of an OAuth server; and the
// OAuth discovery documents (/.well-known/…) answer 404 at once, without a
// token, so a client that looks for them anyway stops there.
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.Error(w, "Not Found: this server offers no OAuth; send the static token it was started with as \"Authorization: Bearer <token>\"", http.StatusNotFound)
			return
		}
		header := r.Header.Get("Authorization")
		if header == "" && r.URL.Path == HealthPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			// Orchestrators' probes carry no credentials: they get the
			// status alone, the rest of Health needs the token.
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = io.WriteString(w, `{"status":"ok"}`+"\n")
			return
		}
		scheme, got, ok := strings.Cut(header, " ")
		digest := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(digest[:], want[:]) != 1 {
			if header == "" {
				w.Header().Set("WWW-Authenticate", "Bearer")
			} else {
				w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="not the token this server was started with"`)
			}
			http.Error(w, `Unauthorized: a valid "Authorization: Bearer <token>" header is required (the server's static token; it offers no OAuth)`, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin is the DNS-rebinding protection. On a loopback listener the
// Host header must name a loopback host (localhost, 127.0.0.0/8, ::1): a
// browser lured by a rebound name sends that name instead. On any listener an
// Origin header, when present, must be the endpoint's own origin (its host and
// port equal the Host header's) or one of allowed. Both failures answer 403.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if onLoopback(r) && !IsLoopbackHost(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not a loopback name on a loopback listener (DNS-rebinding protection)", r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, allowed) {
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q does not match the endpoint's host %q", origin, r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// onLoopback reports whether the request arrived on a loopback address.
func onLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && addr != nil && IsLoopbackHost(addr.String())
}

// IsLoopbackHost reports whether host (with or without a port, IPv6 in
// brackets or not) is "localhost" or a loopback IP address.
func IsLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// originAllowed reports whether origin is the endpoint's own (scheme default
// ports made explicit) or listed in allowed. The opaque origin "null" never is.
func originAllowed(origin, host string, allowed []string) bool {
	if slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(withPort(u.Host, u.Scheme), withPort(host, u.Scheme))
}

// withPort adds the scheme's default port to a host that has none.
func withPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), port)
}
