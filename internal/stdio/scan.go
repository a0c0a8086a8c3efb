package stdio

import (
	"encoding/binary"
	"math/bits"
)

// maxScanDepth bounds the nesting the stdio fast paths accept (the top-level
// object counts as 1). It equals the go-sdk decoder's limit, so a message the
// go-sdk refuses as too deep is never taken by the fast decoder; deeper input
// takes the go-sdk path, which answers it as before.
const maxScanDepth = 1000

// jsonScan checks JSON text with the grammar of encoding/json's scanner (RFC
// 8259; bytes of strings are not checked for UTF-8, as encoding/json does not)
// and never accepts what that scanner rejects. It is stricter in two ways the
// callers rely on: nesting deeper than maxScanDepth fails, and when compact is
// set any insignificant whitespace fails, so a value it accepts is exactly what
// encoding/json's compaction would output for it.
type jsonScan struct {
	b       []byte
	compact bool
}

// stringByte marks the bytes str must stop at inside a string: the closing
// quote, a backslash, and the control characters JSON forbids unescaped.
var stringByte = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// space skips insignificant whitespace from i; in compact mode it skips none.
func (s *jsonScan) space(i int) int {
	if s.compact {
		return i
	}
	for i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value checks the value starting at i, inside containers nested depth deep,
// and returns the index just past it.
func (s *jsonScan) value(i, depth int) (int, bool) {
	if i >= len(s.b) {
		return i, false
	}
	switch c := s.b[i]; {
	case c == '"':
		return s.str(i)
	case c == '{':
		return s.object(i, depth+1)
	case c == '[':
		return s.array(i, depth+1)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(i)
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	}
	return i, false
}

func (s *jsonScan) object(i, depth int) (int, bool) {
	if depth > maxScanDepth {
		return i, false
	}
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			return i, false
		}
		end, ok := s.str(i)
		if !ok {
			return end, false
		}
		i = s.space(end)
		if i >= len(s.b) || s.b[i] != ':' {
			return i, false
		}
		if i, ok = s.value(s.space(i+1), depth); !ok {
			return i, false
		}
		var more bool
		if i, more, ok = s.next(i, '}'); !ok || !more {
			return i, ok
		}
	}
}

// next reads what follows a member or an element, from i: a comma (more
// follows, at the returned offset) or the closing byte (the returned offset is
// past it); anything else is not JSON.
func (s *jsonScan) next(i int, closing byte) (at int, more, ok bool) {
	i = s.space(i)
	if i >= len(s.b) {
		return i, false, false
	}
	switch s.b[i] {
	case ',':
		return s.space(i + 1), true, true
	case closing:
		return i + 1, false, true
	default:
		return i, false, false
	}
}

func (s *jsonScan) array(i, depth int) (int, bool) {
	if depth > maxScanDepth {
		return i, false
	}
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok, more bool
		if i, ok = s.value(i, depth); !ok {
			return i, false
		}
		if i, more, ok = s.next(i, ']'); !ok || !more {
			return i, ok
		}
	}
}

// str checks the string starting at the quote at i and returns the index past
// its closing quote. Runs of ordinary bytes are skipped eight at a time.
func (s *jsonScan) str(i int) (int, bool) {
	b := s.b
	for i++; ; {
		for i+8 <= len(b) {
			if m := stringByteMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		for i < len(b) && !stringByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '"':
			return i + 1, true
		case '\\':
			i++
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return i, false
				}
				i += 5
			default:
				return i, false
			}
		default: // a control character
			return i, false
		}
	}
}

// Byte-parallel tests on a 64-bit little-endian word ("Bit Twiddling Hacks":
// haszero, hasless). Each mask sets the high bit of the first byte that
// matches, exactly; bits above it may be set spuriously, so only the lowest
// set bit of a mask is used.
const (
	wordOnes  = 0x0101010101010101
	wordHighs = 0x8080808080808080
)

// stringByteMask marks the bytes of w that stringByte marks; its lowest set
// bit is the high bit of the first of them.
func stringByteMask(w uint64) uint64 {
	zero := func(v uint64) uint64 { return (v - wordOnes) &^ v & wordHighs }
	return zero(w^(wordOnes*'"')) | zero(w^(wordOnes*'\\')) | (w-wordOnes*0x20)&^w&wordHighs
}

// plain reports whether s is printable ASCII with no quote and no backslash:
// as the content of a JSON string it is its own value, and encoding/json
// writes it verbatim (HTML escaping is off in the go-sdk).
func plain[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func (s *jsonScan) number(i int) (int, bool) {
	b := s.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func (s *jsonScan) literal(i int, lit string) (int, bool) {
	if len(s.b)-i < len(lit) || string(s.b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// compactRawJSON reports whether b is one JSON value that encoding/json, which
// compacts a json.RawMessage when it marshals it, would write back unchanged:
// valid, with no insignificant whitespace, nested at most maxScanDepth deep.
func compactRawJSON(b []byte) bool {
	s := jsonScan{b: b, compact: true}
	end, ok := s.value(0, 0)
	return ok && end == len(b)
}
