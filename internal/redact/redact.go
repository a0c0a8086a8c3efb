// Package redact removes secrets (tokens, passwords) from text before it
// reaches a log line, an error or a tool result (issue 16, item 11): each
// secret in plain form, URL-escaped (query and path escaping), and inside any
// base64 run that decodes to text holding it (an echoed
// `Authorization: Basic base64(user:TOKEN)` header), plus the userinfo of
// every URL.
package redact

import (
	"encoding/base64"
	"io"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Mask replaces what is redacted.
const Mask = "***"

// MinInWord is the length from which a secret is redacted wherever it
// appears, inside a word or base64 too. A shorter one (a token `t`, a
// password `skills`) is redacted only where it stands as a whole word: masked
// inside words it would mangle every line (`h***p://`, `***-mcp`) and, by the
// pattern of the masks, reveal itself.
const MinInWord = 8

// urlUserinfo matches the userinfo of every scheme://userinfo@ in a text; the
// greedy class stops at the first '/', '?', '#' or space, so it spans an
// unescaped '@' inside a password.
var urlUserinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)

// base64Run matches a run that may be base64 (standard or URL alphabet), long
// enough to hold a secret of a few characters.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{8,}={0,2}`)

// URLUserinfo replaces the userinfo of every URL in text with Mask:
// https://x:TOKEN@github.com/o/r becomes https://***@github.com/o/r.
func URLUserinfo(text string) string {
	return urlUserinfo.ReplaceAllString(text, "${1}"+Mask+"@")
}

// Redactor holds the secrets to remove. It is safe for concurrent use; the
// zero value redacts only URL userinfo.
type Redactor struct {
	mu      sync.RWMutex
	plain   []string // the secrets as given, for base64 matches
	secrets []string // every form, longest first, so none is left half-replaced
	words   []string // the secrets shorter than MinInWord, redacted as whole words only
}

// New returns a redactor of secrets (empty ones are ignored).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add makes secret, and its escaped forms, redacted from now on. An empty
// secret is ignored.
func (r *Redactor) Add(secret string) {
	if secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.plain, secret) || slices.Contains(r.words, secret) {
		return
	}
	if len(secret) < MinInWord {
		r.words = append(r.words, secret)
		sort.SliceStable(r.words, func(i, j int) bool { return len(r.words[i]) > len(r.words[j]) })
		return
	}
	r.plain = append(r.plain, secret)
	for _, v := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
		if !slices.Contains(r.secrets, v) {
			r.secrets = append(r.secrets, v)
		}
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
}

// String returns text without any secret, in any of the forms, and without
// URL userinfo.
func (r *Redactor) String(text string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.plain) > 0 {
		text = base64Run.ReplaceAllStringFunc(text, func(run string) string {
			if r.hidesSecret(run) {
				return Mask
			}
			return run
		})
		for _, s := range r.secrets {
			text = strings.ReplaceAll(text, s, Mask)
		}
	}
	for _, w := range r.words {
		text = replaceWord(text, w)
	}
	return URLUserinfo(text)
}

// replaceWord replaces with Mask each occurrence of w in text that no
// letter, digit, '_', '-', '.' or '/' touches on either side: a short secret
// is masked as a value (`token=t`), never inside a word, a path or a host.
func replaceWord(text, w string) string {
	var b strings.Builder
	rest := text
	for {
		i := strings.Index(rest, w)
		if i < 0 {
			break
		}
		end := i + len(w)
		if (i == 0 || !isWordByte(rest[i-1])) && (end == len(rest) || !isWordByte(rest[end])) {
			b.WriteString(rest[:i])
			b.WriteString(Mask)
		} else {
			b.WriteString(rest[:end])
		}
		rest = rest[end:]
	}
	if b.Len() == 0 {
		return text
	}
	b.WriteString(rest)
	return b.String()
}

// isWordByte reports a byte that continues a word, a path or a host name: an
// ASCII letter or digit, '_', '-', '.', '/', or any byte of a multi-byte
// character.
func isWordByte(c byte) bool {
	return c >= 0x80 || c == '_' || c == '-' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// hidesSecret reports whether run decodes, in one of the base64 alphabets, to
// text that holds a secret. A run may start anywhere inside an encoding, so
// the three alignments are tried. The caller holds r.mu.
func (r *Redactor) hidesSecret(run string) bool {
	trimmed := strings.TrimRight(run, "=")
	for skip := 0; skip < 4 && skip < len(trimmed); skip++ {
		body := trimmed[skip:]
		if len(body)%4 == 1 {
			body = body[:len(body)-1] // a lone last character encodes no byte
		}
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			decoded, err := enc.DecodeString(body)
			if err != nil {
				continue
			}
			for _, s := range r.plain {
				if strings.Contains(string(decoded), s) {
					return true
				}
			}
		}
	}
	return false
}

// Writer returns a writer that redacts each write before passing it to w. A
// secret split across two writes is not seen; hclog writes a line at a time.
func (r *Redactor) Writer(w io.Writer) io.Writer { return &writer{r: r, w: w} }

type writer struct {
	r *Redactor
	w io.Writer
}

// Write implements io.Writer; it reports len(p) written when the redacted
// text was written whole.
func (w *writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.w, w.r.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
