package redact

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// TestRedactsEveryForm checks each form a token took in the probe
// (issue 16, item 11): plain, URL-escaped, base64 alone and in a Basic
// header's user:TOKEN pair, at every alignment, and URL userinfo.
func TestRedactsEveryForm(t *testing.T) {
	const token = "ghp_s3cr3t/Tok+en=42"
	r := New(token)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	tests := []struct{ name, text string }{
		{"plain", "token is " + token + " here"},
		{"query escaped", "q=" + url.QueryEscape(token)},
		{"path escaped", "/x/" + url.PathEscape(token) + "/y"},
		{"base64 alone", "value " + b64(token)},
		{"basic header", "Authorization: Basic " + b64("x-access-token:"+token)},
		{"basic header, other user", "Authorization: Basic " + b64("bob:"+token)},
		{"basic header, user of length 1", "Basic " + b64("a:"+token)},
		{"basic header, user of length 2", "Basic " + b64("ab:"+token)},
		{"url base64", base64.URLEncoding.EncodeToString([]byte("u:" + token))},
		{"unpadded", base64.RawStdEncoding.EncodeToString([]byte("uu:" + token))},
		{"glued to text", "abc" + b64("x:"+token)},
		{"url userinfo", "https://x-access-token:" + token + "@github.com/o/r.git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.String(tt.text)
			for _, form := range []string{token, url.QueryEscape(token), url.PathEscape(token)} {
				if strings.Contains(got, form) {
					t.Errorf("String(%q) = %q: still holds %q", tt.text, got, form)
				}
			}
			if !strings.Contains(got, Mask) {
				t.Errorf("String(%q) = %q: nothing redacted", tt.text, got)
			}
		})
	}
}

func TestLeavesOtherTextAlone(t *testing.T) {
	r := New("ghp_s3cr3tToken42")
	for _, text := range []string{
		"fetching branch main: status 500",
		"commit 0123456789abcdef0123456789abcdef01234567",
		"Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:another")),
	} {
		if got := r.String(text); got != text {
			t.Errorf("String(%q) = %q, want it unchanged", text, got)
		}
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	r := New()
	r.Add("tok123456")
	w := r.Writer(&buf)
	line := []byte("level=warn error=\"auth tok123456 refused\"\n")
	n, err := w.Write(line)
	if err != nil || n != len(line) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := buf.String(); strings.Contains(got, "tok123456") || !strings.Contains(got, Mask) {
		t.Errorf("wrote %q", got)
	}
}

// A secret shorter than MinInWord is redacted where it stands alone, never
// inside a word or a base64 run: masked there it would mangle every line and
// give itself away.
func TestShortSecretOnlyAsAWord(t *testing.T) {
	tests := []struct {
		secret, text, want string
	}{
		{"t", "listening url=http://127.0.0.1:8080/mcp", "listening url=http://127.0.0.1:8080/mcp"},
		{"skills", "skills-mcp: skills indexed: roots=/tmp/skills/x", "skills-mcp: *** indexed: roots=/tmp/skills/x"},
		{"skills", "token=skills rejected", "token=*** rejected"},
		{"ab1", "Basic " + base64.StdEncoding.EncodeToString([]byte("x:ab1")), "Basic " + base64.StdEncoding.EncodeToString([]byte("x:ab1"))},
		{"pw", "https://user:pw@example.com/r.git", "https://***@example.com/r.git"},
	}
	for _, tt := range tests {
		if got := New(tt.secret).String(tt.text); got != tt.want {
			t.Errorf("secret %q: String(%q) = %q, want %q", tt.secret, tt.text, got, tt.want)
		}
	}
}
