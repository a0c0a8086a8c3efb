package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

func TestParseCredential(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		out                string
		wantUser, wantPass string
	}{
		{name: "fill answer", out: "protocol=https\nhost=github.com\nusername=me\npassword=ghp_abc\n", wantUser: "me", wantPass: "ghp_abc"},
		{name: "equals sign in the password", out: "username=me\npassword=a=b==\n", wantUser: "me", wantPass: "a=b=="},
		{name: "CRLF line ends", out: "username=me\r\npassword=pw\r\n", wantUser: "me", wantPass: "pw"},
		{name: "blank line ends the answer", out: "username=me\n\npassword=pw\n", wantUser: "me"},
		{name: "later line wins", out: "username=a\nusername=b\npassword=p\n", wantUser: "b", wantPass: "p"},
		{name: "other attributes ignored", out: "password_expiry_utc=1700000000\nusername=me\npassword=pw\nquit=0\n", wantUser: "me", wantPass: "pw"},
		{name: "line without equals sign ignored", out: "garbage\nusername=me\npassword=pw", wantUser: "me", wantPass: "pw"},
		{name: "NUL in a value ignored", out: "username=me\npassword=p\x00w\n", wantUser: "me"},
		{name: "empty answer", out: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseCredential([]byte(tt.out))
			if got.Username != tt.wantUser || got.Password != tt.wantPass {
				t.Errorf("parseCredential(%q): got %q:%q, want %q:%q", tt.out, got.Username, got.Password, tt.wantUser, tt.wantPass)
			}
		})
	}
}

func TestEncodeCredential(t *testing.T) {
	t.Parallel()
	req := credentialRequest{protocol: "https", host: "git.example.com:8443", path: "org/skills.git"}
	tests := []struct {
		name string
		req  credentialRequest
		cred *githttp.BasicAuth
		want string
	}{
		{name: "fill request", req: req, want: "protocol=https\nhost=git.example.com:8443\npath=org/skills.git\n\n"},
		{name: "no path", req: credentialRequest{protocol: "http", host: "h"}, want: "protocol=http\nhost=h\n\n"},
		{
			name: "approve or reject", req: req, cred: &githttp.BasicAuth{Username: "me", Password: "pw"},
			want: "protocol=https\nhost=git.example.com:8443\npath=org/skills.git\nusername=me\npassword=pw\n\n",
		},
		{
			name: "newline in a value is left out", req: req, cred: &githttp.BasicAuth{Username: "me", Password: "p\nhost=evil"},
			want: "protocol=https\nhost=git.example.com:8443\npath=org/skills.git\nusername=me\n\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(encodeCredential(tt.req, tt.cred)); got != tt.want {
				t.Errorf("encodeCredential: got %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseCredential(f *testing.F) {
	f.Add("username=me\npassword=pw\n")
	f.Add("protocol=https\nhost=h\r\nusername=a=b\npassword=\x00\n\npassword=late\n")
	f.Fuzz(func(t *testing.T, out string) {
		got := parseCredential([]byte(out))
		for _, v := range []string{got.Username, got.Password} {
			if strings.ContainsAny(v, "\n\x00") {
				t.Fatalf("parseCredential(%q): value %q holds a newline or NUL", out, v)
			}
		}
		// What was parsed survives a round trip through the protocol.
		again := parseCredential(encodeCredential(credentialRequest{protocol: "https", host: "h"}, got))
		if strings.HasSuffix(got.Username, "\r") || strings.HasSuffix(got.Password, "\r") {
			return // a trailing CR is a line end to the protocol
		}
		if *again != *got {
			t.Fatalf("round trip of %q: got %+v, want %+v", out, again, got)
		}
	})
}

func TestNewCredentialHelper(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    options
		wantReq *credentialRequest // nil: no helper fallback
	}{
		{
			name:    "https without token",
			opts:    options{Source: gitsync.Source{URL: "https://github.com/org/skills.git"}},
			wantReq: &credentialRequest{protocol: "https", host: "github.com", path: "org/skills.git"},
		},
		{
			name:    "http with a port",
			opts:    options{Source: gitsync.Source{URL: "http://git.local:8080/skills"}},
			wantReq: &credentialRequest{protocol: "http", host: "git.local:8080", path: "skills"},
		},
		{name: "https with token", opts: options{Source: gitsync.Source{URL: "https://github.com/org/skills.git", Token: "tok"}}},
		{name: "https with URL credentials", opts: options{Source: gitsync.Source{URL: "https://me:pw@github.com/org/skills.git"}}},
		{name: "ssh", opts: options{Source: gitsync.Source{URL: "git@github.com:org/skills.git"}}},
		{name: "local path", opts: options{Source: gitsync.Source{URL: "/srv/skills.git"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Dir = t.TempDir()
			s, err := newSyncer(tt.opts)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			switch {
			case tt.wantReq == nil && s.credentials != nil:
				t.Errorf("credential helper: got one for %+v, want none", s.credentials.req)
			case tt.wantReq != nil && s.credentials == nil:
				t.Errorf("credential helper: got none, want one for %+v", *tt.wantReq)
			case tt.wantReq != nil && s.credentials.req != *tt.wantReq:
				t.Errorf("credential request: got %+v, want %+v", s.credentials.req, *tt.wantReq)
			}
		})
	}
}

// TestCredentialHelperTimeout: a helper that never answers is given up after
// the timeout, in the fake time of a synctest bubble.
func TestCredentialHelperTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newCredentialHelper("https://github.com/org/skills.git")
		var gotDeadline time.Time
		h.run = func(ctx context.Context, action string, input []byte) ([]byte, error) {
			gotDeadline, _ = ctx.Deadline()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		start := time.Now()
		cred, err := h.fill(t.Context())
		if cred != nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("fill: got %v, %v; want no credentials and context.DeadlineExceeded", cred, err)
		}
		if want := start.Add(credentialTimeout); !gotDeadline.Equal(want) {
			t.Errorf("deadline of the helper: got %v, want %v", gotDeadline, want)
		}
	})
}
