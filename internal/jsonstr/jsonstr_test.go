package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encoded is what encoding/json writes for s: json.Marshal with escapeHTML,
// an Encoder with HTML escaping off without.
func encoded(t testing.TB, s string, escapeHTML bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestWrite(t *testing.T) {
	tests := []struct{ name, in, html, plain string }{
		{"plain", "abc", `"abc"`, `"abc"`},
		{"empty", "", `""`, `""`},
		{"html", "<a>&", `"\u003ca\u003e\u0026"`, `"<a>&"`},
		{"quotes and backslash", `"\`, `"\"\\"`, `"\"\\"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`, `"\b\f\n\r\t"`},
		{"other controls", "\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`, `"\u0000\u001f` + "\x7f" + `"`},
		{"separators", "\u2028\u2029", `"\u2028\u2029"`, `"\u2028\u2029"`},
		{"invalid UTF-8", "a\xffb\xc3", `"a\ufffdb\ufffd"`, `"a\ufffdb\ufffd"`},
		{"multibyte", "é🙂", `"é🙂"`, `"é🙂"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				html bool
				want string
			}{{true, tt.html}, {false, tt.plain}} {
				var b strings.Builder
				Write(&b, tt.in, c.html)
				if b.String() != c.want || c.want != encoded(t, tt.in, c.html) {
					t.Errorf("escapeHTML %v: got %s, want %s (encoding/json: %s)", c.html, b.String(), c.want, encoded(t, tt.in, c.html))
				}
			}
		})
	}
}

// FuzzWrite holds Write to encoding/json, with and without HTML escaping.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"", "plain", "<>&", "\"\\", "\x00\x01\b\f\n\r\t\x1f\x7f", "\u2028\u2029", "\xff", "é\xc3", "🙂"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, escapeHTML bool) {
		var b bytes.Buffer
		Write(&b, s, escapeHTML)
		if want := encoded(t, s, escapeHTML); b.String() != want {
			t.Fatalf("got %s, want %s", b.String(), want)
		}
	})
}
