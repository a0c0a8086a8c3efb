package frontmatter

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// fastFrontmatter decodes the frontmatter block front when it keeps to the
// plain subset of YAML that skill files use, giving exactly what
// yamlFrontmatter gives: block mappings with simple keys, block sequences (items
// on a `- ` line, mappings included), one-line flow sequences, and one-line
// scalars — plain ones resolved as the full decoder resolves them (strings,
// YAML 1.2 booleans, nulls, decimal integers), single- and double-quoted ones as strings.
//
// Anything else — comments after a value, multi-line scalars, block scalars,
// anchors, tags, floats, timestamps, escapes other than \" and \\, tabs, flow
// mappings, duplicate keys, unusual characters — makes it report ok false,
// and the caller falls back to the full decoder (yamlFrontmatter). It never decides differently from
// it: it only declines. FuzzFastFrontmatter holds it to that.
func fastFrontmatter(front []byte) (m map[string]any, ok bool) {
	return fastFrontmatterOf(string(front))
}

// fastFrontmatterOf is fastFrontmatter for a block held as a string: the
// strings of m are cut from front, never copied (except those with escapes).
func fastFrontmatterOf(front string) (m map[string]any, ok bool) {
	p := fastParsers.Get().(*fastParser)
	defer p.release()
	if !p.split(front) {
		return nil, false
	}
	if len(p.lines) == 0 {
		return map[string]any{}, true
	}
	if p.lines[0].indent != 0 {
		return nil, false
	}
	m, ok = p.mapping(0)
	if !ok || p.pos != len(p.lines) || !textAsWritten(m) {
		return nil, false
	}
	return m, true
}

// fastParsers keeps parsers, with their line slices, between files: at
// 10,000 skills a slice per file was 4 MB of a build's garbage.
var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// release forgets the lines (which point into the block parsed) and returns
// p to fastParsers.
func (p *fastParser) release() {
	clear(p.lines)
	p.lines, p.pos = p.lines[:0], 0
	fastParsers.Put(p)
}

// textAsWritten reports whether every scalar of the frontmatter m in a text
// field (TextField) is a string or null: a number or a boolean there must be
// served as it is written, which only the full decoder knows. It follows the
// text fields' paths (textPaths) without building a string per value.
func textAsWritten(m map[string]any) bool {
	for k, v := range m {
		if k == "metadata" {
			if !allText(v) {
				return false
			}
			continue
		}
		if child, ok := textPaths[""][k]; ok && !textIn(v, child) {
			return false
		}
	}
	return true
}

// textIn is textAsWritten for the value v at path.
func textIn(v any, path string) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if child, ok := textPaths[path][k]; ok && !textIn(val, child) {
				return false
			}
		}
	case []any:
		if child, ok := textPaths[path]["[]"]; ok {
			for _, val := range t {
				if !textIn(val, child) {
					return false
				}
			}
		}
	case string, nil:
	default:
		return !TextField(path)
	}
	return true
}

// allText reports whether every scalar of v is a string or null.
func allText(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, val := range t {
			if !allText(val) {
				return false
			}
		}
	case []any:
		for _, val := range t {
			if !allText(val) {
				return false
			}
		}
	case string, nil:
	default:
		return false
	}
	return true
}

// textPaths maps a path and one step below it (a key, or "[]" for a list
// entry) to the path of that step, for every path leading to a text field
// but metadata's (all text): parent path → step → child path.
var textPaths = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	add := func(parent, step, child string) {
		if out[parent] == nil {
			out[parent] = map[string]string{}
		}
		out[parent][step] = child
	}
	for field := range textFields {
		if strings.HasPrefix(field, "metadata.") {
			continue
		}
		parent := ""
		for _, part := range strings.Split(field, ".") { // "scripts[]", "args[]", "name"
			key, list := strings.CutSuffix(part, "[]")
			child := joinKey(parent, key)
			add(parent, key, child)
			parent = child
			if list {
				add(parent, "[]", parent+"[]")
				parent += "[]"
			}
		}
	}
	return out
}()

// fastLine is one line of content: its indentation and the text after it,
// trailing spaces removed.
type fastLine struct {
	indent int
	text   string
}

// fastParser walks the content lines of one frontmatter block.
type fastParser struct {
	lines []fastLine
	pos   int
}

// split cuts front into content lines, leaving out blank lines and comment
// lines; it declines input with characters the subset does not take: tabs,
// carriage returns other than before a newline, control characters, and
// everything YAML treats specially or refuses outside ASCII (NEL, line and
// paragraph separators, BOM, C1 controls, non-characters, invalid UTF-8).
func (p *fastParser) split(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < ' ' && c != '\n' && c != '\r') || c == 0x7F {
				return false
			}
			if c == '\r' && (i+1 >= len(s) || s[i+1] != '\n') {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r <= 0x9F || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r >= 0xFFFE && r <= 0xFFFF {
			return false
		}
		i += size
	}
	if n := strings.Count(s, "\n") + 1; cap(p.lines) < n {
		p.lines = make([]fastLine, 0, n)
	}
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\r\n")
		text := strings.TrimLeft(line, " ")
		text = strings.TrimRight(text, " ")
		if text == "" || text[0] == '#' {
			continue
		}
		if strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...") || text[0] == '%' {
			return false // document markers and directives
		}
		p.lines = append(p.lines, fastLine{indent: len(line) - len(strings.TrimLeft(line, " ")), text: text})
	}
	return true
}

// mapping reads the block mapping whose keys sit at indent, starting at the
// current line.
func (p *fastParser) mapping(indent int) (map[string]any, bool) {
	m := map[string]any{}
	for p.pos < len(p.lines) {
		ln := p.lines[p.pos]
		if ln.indent < indent {
			break
		}
		if ln.indent > indent || isSeqItem(ln.text) {
			return nil, false
		}
		key, rest, ok := splitKey(ln.text)
		if !ok {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false
		}
		p.pos++
		var v any
		if rest == "" {
			v, ok = p.nested(indent)
		} else {
			v, ok = inlineValue(rest)
		}
		if !ok {
			return nil, false
		}
		m[key] = v
	}
	return m, true
}

// nested reads the value of a key with nothing after its colon: a block
// below it (a mapping or a sequence indented further, or a sequence at the
// key's own indent), or null.
func (p *fastParser) nested(indent int) (any, bool) {
	if p.pos >= len(p.lines) {
		return nil, true
	}
	next := p.lines[p.pos]
	switch {
	case next.indent > indent && isSeqItem(next.text):
		return p.sequence(next.indent)
	case next.indent > indent:
		return p.mapping(next.indent)
	case next.indent == indent && isSeqItem(next.text):
		return p.sequence(indent)
	default:
		return nil, true
	}
}

// sequence reads the block sequence whose dashes sit at indent.
func (p *fastParser) sequence(indent int) ([]any, bool) {
	n := 0
	for _, ln := range p.lines[p.pos:] {
		if ln.indent < indent {
			break
		}
		if ln.indent == indent {
			if !isSeqItem(ln.text) {
				break
			}
			n++
		}
	}
	out := make([]any, 0, n) // sized once: an entry is at most one dash line
	for p.pos < len(p.lines) {
		ln := p.lines[p.pos]
		if ln.indent < indent || (ln.indent == indent && !isSeqItem(ln.text)) {
			break
		}
		if ln.indent > indent || ln.text == "-" {
			return nil, false
		}
		content := strings.TrimLeft(ln.text[1:], " ")
		col := ln.indent + len(ln.text) - len(content)
		if _, _, isKey := splitKey(content); isKey {
			// A mapping whose first key is on the dash line: read it as if
			// that key stood alone on its line at its column.
			p.lines[p.pos] = fastLine{indent: col, text: content}
			m, ok := p.mapping(col)
			if !ok {
				return nil, false
			}
			out = append(out, m)
			continue
		}
		v, ok := inlineValue(content)
		if !ok {
			return nil, false
		}
		out = append(out, v)
		p.pos++
	}
	return out, true
}

// isSeqItem reports a block sequence entry: a dash alone or followed by a space.
func isSeqItem(text string) bool {
	return text == "-" || strings.HasPrefix(text, "- ")
}

// splitKey cuts `key: rest` or `key:` where key is a simple plain key: a
// letter or underscore, then letters, digits, underscores and hyphens, and
// none of the boolean or null words of keyWords.
func splitKey(text string) (key, rest string, ok bool) {
	i := 0
	for i < len(text) && isKeyByte(text[i], i == 0) {
		i++
	}
	if i == 0 || i >= len(text) || text[i] != ':' {
		return "", "", false
	}
	if i+1 < len(text) && text[i+1] != ' ' {
		return "", "", false
	}
	key = text[:i]
	if len(key) > maxFastKey {
		return "", "", false // libyaml refuses simple keys of 1024 characters and more
	}
	if _, special := keyWords[key]; special {
		return "", "", false
	}
	return key, strings.TrimLeft(text[i+1:], " "), true
}

// maxFastKey is the longest key the fast path takes.
const maxFastKey = 512

func isKeyByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		return true
	case c >= '0' && c <= '9', c == '-':
		return !first
	default:
		return false
	}
}

// inlineValue decodes the one-line value after a key or a dash: a flow
// sequence, a quoted scalar or a plain scalar.
func inlineValue(text string) (any, bool) {
	switch text[0] {
	case '[':
		return flowSequence(text)
	case '"', '\'':
		s, rest, ok := quoted(text)
		if !ok || strings.TrimLeft(rest, " ") != "" {
			return nil, false
		}
		return s, true
	}
	return plainScalar(text, false)
}

// flowSequence decodes `[a, "b", c]` on one line: plain or quoted scalars,
// no nesting, no empty entry.
func flowSequence(text string) ([]any, bool) {
	rest := strings.TrimLeft(text[1:], " ")
	out := make([]any, 0, strings.Count(rest, ",")+1) // at most one entry per comma, and one
	if strings.HasPrefix(rest, "]") {
		return out, rest == "]"
	}
	for {
		var v any
		var ok bool
		if rest == "" {
			return nil, false
		}
		if rest[0] == '"' || rest[0] == '\'' {
			v, rest, ok = quoted(rest)
		} else {
			end := strings.IndexAny(rest, ",]")
			if end < 0 {
				return nil, false
			}
			v, ok = plainScalar(strings.TrimRight(rest[:end], " "), true)
			rest = rest[end:]
		}
		if !ok {
			return nil, false
		}
		out = append(out, v)
		rest = strings.TrimLeft(rest, " ")
		switch {
		case rest == "]":
			return out, true
		case strings.HasPrefix(rest, ","):
			rest = strings.TrimLeft(rest[1:], " ")
		default:
			return nil, false
		}
	}
}

// quoted decodes a single- or double-quoted scalar at the start of text and
// returns what follows it. Double quotes take only the escapes \" and \\.
func quoted(text string) (s, rest string, ok bool) {
	q := text[0]
	if end := strings.IndexByte(text[1:], q) + 1; end > 0 && strings.IndexByte(text[1:end], '\\') < 0 &&
		(q == '"' || end+1 >= len(text) || text[end+1] != '\'') {
		return text[1:end], text[end+1:], true // no escape: a substring
	}
	var b strings.Builder
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), text[i+1:], true
		case c == '\\' && q == '"':
			if i+1 >= len(text) || (text[i+1] != '"' && text[i+1] != '\\') {
				return "", "", false
			}
			b.WriteByte(text[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false // the scalar goes on to another line
}

// plainScalar resolves a one-line plain scalar as the full decoder does, or
// declines: strings, the boolean and null words, and decimal integers are
// taken; a scalar a YAML decoder might read as a float, a timestamp, an octal, hexadecimal or
// binary number, a merge key, or that holds an indicator the subset does not
// parse, is declined. inFlow applies the stricter rules of a flow sequence.
func plainScalar(s string, inFlow bool) (any, bool) {
	if s == "" || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return nil, false
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.Contains(s, " #") {
		return nil, false
	}
	if inFlow && strings.ContainsAny(s, ":[]{},#") {
		return nil, false
	}
	if v, special := scalarWords[s]; special {
		return v, true
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '+', c == '.':
		return decimalInt(s)
	case c == '<':
		return nil, false // "<<", the merge key
	}
	return s, true
}

// decimalInt takes a plain decimal integer without a leading zero (0777 is
// left to the full decoder, which may read it as octal) and small enough for
// an int.
func decimalInt(s string) (any, bool) {
	digits := s
	if len(digits) > 18 || (len(digits) > 1 && digits[0] == '0') {
		return nil, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return nil, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// scalarWords are the plain scalars that resolve to a boolean or null as
// values, with their values: YAML 1.2's core schema for booleans, as yaml12
// decodes them (y, yes, on, n, no, off stay strings). Floats such as .nan and
// .inf start with a character decimalInt declines.
var scalarWords = map[string]any{
	"true": true, "True": true, "TRUE": true,
	"false": false, "False": false, "FALSE": false,
	"~": nil, "null": nil, "Null": nil, "NULL": nil,
}

// keyWords are the plain scalars a YAML 1.1 resolve table reads as a boolean
// or null: the fast path declines such mapping keys and leaves them to the
// full decoder (yamlFrontmatter), which keeps every key as written.
var keyWords = map[string]any{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"true": true, "True": true, "TRUE": true,
	"on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false,
	"false": false, "False": false, "FALSE": false,
	"off": false, "Off": false, "OFF": false,
	"~": nil, "null": nil, "Null": nil, "NULL": nil,
}
