package index

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
)

// WriteTreeJSON writes Tree(filter) to b as compact JSON without HTML
// escaping: the bytes encoding/json gives for it with SetEscapeHTML(false),
// without building the nodes first. At 10,000 skills the tree of nodes and
// the encoder's buffers were most of what a whole-tree list_skills allocates.
func (sn *Snapshot) WriteTreeJSON(b *strings.Builder, filter string) {
	filter = strings.Trim(filter, "/")
	if filter == "" {
		sn.writeNodesJSON(b, sn.children[""])
		return
	}
	for _, p := range []string{filter, filter + "/" + core.IndexSegment} {
		if s, ok := sn.byPath[p]; ok {
			b.WriteByte('[')
			sn.writeNodeJSON(b, s)
			b.WriteByte(']')
			return
		}
	}
	b.WriteString("[]")
}

func (sn *Snapshot) writeNodesJSON(b *strings.Builder, skills []*core.Skill) {
	b.WriteByte('[')
	for i, s := range skills {
		if i > 0 {
			b.WriteByte(',')
		}
		sn.writeNodeJSON(b, s)
	}
	b.WriteByte(']')
}

func (sn *Snapshot) writeNodeJSON(b *strings.Builder, s *core.Skill) {
	assets, scripts := sn.ownResources(s)
	b.WriteString(`{"name":`)
	writeJSONString(b, s.Name)
	b.WriteString(`,"path":`)
	writeJSONString(b, s.Path)
	b.WriteString(`,"description":`)
	writeJSONString(b, s.Description)
	b.WriteString(`,"keywords":[`)
	for i, k := range s.Keywords {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, k)
	}
	b.WriteString(`],"assetCount":`)
	b.WriteString(strconv.Itoa(len(assets)))
	b.WriteString(`,"scriptCount":`)
	b.WriteString(strconv.Itoa(len(scripts)))
	b.WriteString(`,"children":`)
	sn.writeNodesJSON(b, sn.children[s.Path])
	b.WriteByte('}')
}

// writeJSONString writes s as a JSON string the way encoding/json does with
// HTML escaping off: `"` and `\` escaped, control characters as \b \f \n \r
// \t or \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u2028 and
// \u2029 (FuzzWriteJSONString holds it to encoding/json).
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
