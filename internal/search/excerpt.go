package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// flatten returns oneLine(body) and fold(oneLine(body)) in one pass: every
// run of white space (unicode.IsSpace, as strings.Fields splits) becomes one
// space and the ends are trimmed; flat keeps the bytes of everything else as
// they are, folded writes each rune lowercased (an invalid byte as U+FFFD,
// as strings.Map does).
func flatten(body string) (flat, folded string) {
	f := make([]byte, 0, len(body))
	l := make([]byte, 0, len(body)+len(body)/8)
	space := false
	for i := 0; i < len(body); {
		c := body[i]
		if c < utf8.RuneSelf { // ASCII: unicode.IsSpace and unicode.ToLower by table
			i++
			if asciiSpace[c] {
				space = len(f) > 0
				continue
			}
			if space {
				f, l, space = append(f, ' '), append(l, ' '), false
			}
			f = append(f, c)
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			l = append(l, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(body[i:])
		if unicode.IsSpace(r) {
			i += size
			space = len(f) > 0
			continue
		}
		if space {
			f, l, space = append(f, ' '), append(l, ' '), false
		}
		f = append(f, body[i:i+size]...)
		l = utf8.AppendRune(l, unicode.ToLower(r)) // an invalid byte is RuneError: U+FFFD
		i += size
	}
	return string(f), string(l)
}

// asciiSpace marks the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// excerptFlat is excerpt(body, token) given flatten(body), without
// materialising the body as runes: the window is cut at byte offsets found by
// counting runes. TestExcerptFlatEqualsExcerpt holds it to excerpt.
func excerptFlat(flat, folded, token string) string {
	n := utf8.RuneCountInString(flat)
	start := 0
	if token != "" {
		// fold keeps the rune count, so the rune offset in the folded text
		// is the rune offset in flat.
		if at := strings.Index(folded, token); at > 0 {
			start = utf8.RuneCountInString(folded[:at]) - (ExcerptRunes-utf8.RuneCountInString(token))/2
		}
	}
	if start > n-ExcerptRunes {
		start = n - ExcerptRunes
	}
	if start < 0 {
		start = 0
	}
	end := min(start+ExcerptRunes, n)
	from := runeOffset(flat, 0, start)
	to := runeOffset(flat, from, end-start)
	out := strings.TrimSpace(validRunes(flat[from:to]))
	if start > 0 {
		out = "…" + out
	}
	if end < n {
		out += "…"
	}
	return out
}

// runeOffset returns the byte offset k runes after byte offset from in s.
func runeOffset(s string, from, k int) int {
	i := from
	for ; k > 0 && i < len(s); k-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// validRunes is string([]rune(s)): every invalid byte becomes U+FFFD.
func validRunes(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}
