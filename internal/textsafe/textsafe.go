// Package textsafe keeps control characters out of text that people and
// agents read (log lines, tool texts, validate's report): names of folders
// and files, and descriptions, come from a content repository, and a
// newline, a carriage return or an escape sequence in one could start a
// line of its own, forge a list entry or rewrite a terminal.
package textsafe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsControl reports a rune this package escapes: a control character (C0,
// DEL, C1), or the line and paragraph separators U+2028 and U+2029, which
// some readers take for line breaks.
func IsControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// HasControl reports whether s holds a rune IsControl reports.
func HasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if IsControl(r) {
			return true
		}
		i += size - 1
	}
	return false
}

// Escape returns s with every rune IsControl reports written as Go writes it
// in a quoted string (\n, \t, \x1b, \u2028), so that s stays on one line and
// says what it holds. Everything else is kept as it is (a backslash too).
func Escape(s string) string { return escape(s, "") }

// EscapeKeepLines is Escape keeping newlines and tabs: for text whose lines
// are its own (an XML element's content), not a line of a listing.
func EscapeKeepLines(s string) string { return escape(s, "\n\t") }

func escape(s, keep string) string {
	if !HasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if !IsControl(r) || strings.ContainsRune(keep, r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}
