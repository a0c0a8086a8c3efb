package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
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
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		digest := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(digest[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="skills-mcp"`)
			http.Error(w, `Unauthorized: a valid "Authorization: Bearer <token>" header is required`, http.StatusUnauthorized)
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
