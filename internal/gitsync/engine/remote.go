package engine

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// sameRemote reports whether two remote addresses name the same repository:
// userinfo, letter case of the host, a trailing slash or ".git" do not count;
// https, ssh and scp-like forms of one host and path are the same repository;
// a file:// URL equals its plain path.
func sameRemote(a, b string) bool {
	return normalizeRemote(a) == normalizeRemote(b)
}

// normalizeRemote maps a remote address to a comparison key: "net:host/path"
// for network remotes, "file:/abs/path" for local ones.
func normalizeRemote(raw string) string {
	raw = strings.TrimSpace(raw)
	if !hasScheme(raw) {
		if ep, err := transport.NewEndpoint(raw); err == nil && ep.Protocol == "ssh" {
			return "net:" + strings.ToLower(ep.Host) + "/" + trimRepoPath(ep.Path)
		}
		return "file:" + absPath(raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "raw:" + redactURL(raw)
	}
	if strings.EqualFold(u.Scheme, "file") {
		return "file:" + absPath(u.Path)
	}
	return "net:" + strings.ToLower(u.Hostname()) + "/" + trimRepoPath(u.Path)
}

// trimRepoPath drops the slashes around a repository path and a ".git" suffix.
func trimRepoPath(p string) string {
	p = strings.Trim(p, "/")
	return strings.TrimRight(strings.TrimSuffix(p, ".git"), "/")
}

// absPath returns p absolute and cleaned, or cleaned when it cannot be made absolute.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}
