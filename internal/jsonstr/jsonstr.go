// Package jsonstr writes JSON strings exactly as encoding/json does, straight
// into the caller's builder: for the server's large answers (a whole-tree
// list_skills, a tool result of several kilobytes) encoding/json's own buffer,
// grown by doubling and then copied, was most of what they allocated.
package jsonstr

import "unicode/utf8"

// Writer is what Write writes to: *strings.Builder and *bytes.Buffer are.
type Writer interface {
	WriteString(string) (int, error)
	WriteByte(byte) error
}

const hex = "0123456789abcdef"

// Write writes s as a quoted JSON string, byte for byte as encoding/json
// writes it (FuzzWrite holds it to json.Marshal and to an Encoder with HTML
// escaping off): `"` and `\` escaped; \b \f \n \r \t, and other control
// characters as \u00XX; invalid UTF-8 as \ufffd; U+2028 and U+2029 as \u2028
// and \u2029; and with escapeHTML, <, > and & as \u003c, \u003e and \u0026.
func Write(w Writer, s string, escapeHTML bool) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}
