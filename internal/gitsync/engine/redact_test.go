package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"user and token", "https://x-access-token:ghp_abc@github.com/org/r.git", "https://***@github.com/org/r.git"},
		{"token as user", "https://ghp_abc@github.com/org/r.git", "https://***@github.com/org/r.git"},
		{"at sign in the password", "https://u:p@ss@github.com/org/r.git", "https://***@github.com/org/r.git"},
		{"no userinfo", "https://github.com/org/r.git", "https://github.com/org/r.git"},
		{"at sign in the path only", "https://github.com/org/r@v1", "https://github.com/org/r@v1"},
		{"scp-like unchanged", "git@github.com:org/r.git", "git@github.com:org/r.git"},
		{"local path unchanged", "/home/me/skills", "/home/me/skills"},
		{"URLs inside a message", `Get "https://a:b@h1/x": refused; see http://c@h2/y`, `Get "https://***@h1/x": refused; see http://***@h2/y`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redactURL(tt.in); got != tt.want {
				t.Errorf("redactURL(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactorWrap(t *testing.T) {
	t.Parallel()
	r := newRedactor("s3cr3t/tok", "https://user:p%40ss@github.com/org/r.git")
	tests := []struct {
		name   string
		err    error
		want   string
		wantIs error
	}{
		{"nil stays nil", nil, "", nil},
		{"token", errors.New("bad token s3cr3t/tok"), "bad token ***", nil},
		{"escaped token", errors.New("query token=s3cr3t%2Ftok"), "query token=***", nil},
		{"URL password", errors.New("rejected p@ss"), "rejected ***", nil},
		{"userinfo of another URL", errors.New("get https://other:pw@host/x"), "get https://***@host/x", nil},
		{"sentinel kept", fmt.Errorf("fetch s3cr3t/tok: %w", context.DeadlineExceeded), "fetch ***: context deadline exceeded", context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.wrap(tt.err)
			if tt.err == nil {
				if got != nil {
					t.Fatalf("wrap(nil): got %v, want nil", got)
				}
				return
			}
			if got.Error() != tt.want {
				t.Errorf("wrap: got %q, want %q", got.Error(), tt.want)
			}
			if tt.wantIs != nil && !errors.Is(got, tt.wantIs) {
				t.Errorf("errors.Is(%v, %v): got false, want true", got, tt.wantIs)
			}
			if errors.Unwrap(got) != nil {
				t.Errorf("Unwrap: got %v, want nil (the unredacted cause stays hidden)", errors.Unwrap(got))
			}
		})
	}
}

func TestSameRemote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"identical", "https://github.com/org/r.git", "https://github.com/org/r.git", true},
		{".git suffix and slash", "https://github.com/org/r.git", "https://github.com/org/r/", true},
		{"userinfo ignored", "https://x-access-token:t@github.com/org/r.git", "https://github.com/org/r.git", true},
		{"host case", "https://GitHub.com/org/r", "https://github.com/org/r", true},
		{"ssh and https of one repository", "git@github.com:org/r.git", "https://github.com/org/r", true},
		{"file URL and path", "file:///srv/skills/", "/srv/skills", true},
		{"other repository", "https://github.com/org/r", "https://github.com/org/other", false},
		{"path case matters", "https://github.com/Org/r", "https://github.com/org/r", false},
		{"other host", "https://gitlab.com/org/r", "https://github.com/org/r", false},
		{"local and remote", "/srv/org/r", "https://github.com/org/r", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameRemote(tt.a, tt.b); got != tt.want {
				t.Errorf("sameRemote(%q, %q): got %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// FuzzRedactURL checks that no userinfo survives redaction, that redaction is
// idempotent, and that a URL built with a password never shows it.
func FuzzRedactURL(f *testing.F) {
	f.Add("https://x-access-token:ghp_secret@github.com/org/r.git", "pa:ss@word")
	f.Add("git@github.com:org/r.git", "")
	f.Add("/srv/skills", "tok")
	f.Fuzz(func(t *testing.T, raw, password string) {
		got := redactURL(raw)
		if again := redactURL(got); again != got {
			t.Fatalf("redactURL not idempotent: %q then %q", got, again)
		}
		if u, err := url.Parse(got); err == nil && u.User != nil && strings.Contains(got, "://") {
			if _, hasPassword := u.User.Password(); hasPassword || u.User.Username() != "***" {
				t.Fatalf("redactURL(%q) = %q keeps userinfo %q", raw, got, u.User.String())
			}
		}
		if len(password) < 4 {
			return
		}
		built := "https://" + url.UserPassword("x-access-token", password).String() + "@github.com/org/r.git"
		enc := url.UserPassword("", password).String()[1:]
		if red := redactURL(built); strings.Contains(red, enc) {
			t.Fatalf("redactURL(%q) = %q shows the password", built, red)
		}
	})
}
