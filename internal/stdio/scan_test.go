package stdio

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// scanValid reports whether jsonScan, allowing whitespace, takes b as one
// JSON value.
func scanValid(b []byte) bool {
	s := jsonScan{b: b}
	end, ok := s.value(s.space(0), 0)
	return ok && s.space(end) == len(b)
}

// checkScan fails when jsonScan disagrees with encoding/json on b: it must
// take exactly the valid JSON (and compactRawJSON exactly the valid JSON
// json.Compact leaves unchanged) that nests at most maxScanDepth deep.
func checkScan(t testing.TB, b []byte) {
	t.Helper()
	valid := json.Valid(b)
	shallow := bytes.Count(b, []byte("{"))+bytes.Count(b, []byte("[")) <= maxScanDepth
	if got := scanValid(b); got && !valid || !got && valid && shallow {
		t.Fatalf("jsonScan took %q: got %v, want json.Valid's %v", b, got, valid)
	}
	var compacted bytes.Buffer
	isCompact := valid && json.Compact(&compacted, b) == nil && bytes.Equal(compacted.Bytes(), b)
	if got := compactRawJSON(b); got && !isCompact || !got && isCompact && shallow {
		t.Fatalf("compactRawJSON(%q) = %v, want %v", b, got, isCompact)
	}
}

func TestJSONScanAgreesWithEncodingJSON(t *testing.T) {
	tests := []struct{ name, in string }{
		{"object", `{"a":[1,-2.5e+3,true,false,null,"s"],"b":{}}`},
		{"spaced object", " { \"a\" : [ 1 , 2 ] }\n"},
		{"empty containers", `[{},[],""]`},
		{"scalars", `-0.0E-0`},
		{"string escapes", `"\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00"`},
		{"raw unicode", `"é😀` + "\u2028" + `"`},
		{"invalid UTF-8", "\"\xff\""},
		{"DEL", "\"\x7f\""},
		{"control character", "\"a\x01b\""},
		{"bad escape", `"\a"`},
		{"short unicode escape", `"\u12"`},
		{"unterminated string", `"abc`},
		{"leading zero", `01`},
		{"bare fraction", `1.`},
		{"bare exponent", `1e`},
		{"plus sign", `+1`},
		{"bare minus", `-`},
		{"truncated literal", `tru`},
		{"misspelt literal", `nulL`},
		{"missing colon", `{"a" 1}`},
		{"trailing comma in an object", `{"a":1,}`},
		{"trailing comma in an array", `[1,]`},
		{"non-string key", `{1:2}`},
		{"two values", `1 2`},
		{"unclosed array", `[1`},
		{"mismatched brackets", `[1}`},
		{"empty", ``},
		{"only whitespace", ` `},
		{"depth 1000", strings.Repeat("[", 1000) + strings.Repeat("]", 1000)},
		{"depth 1001", strings.Repeat("[", 1001) + strings.Repeat("]", 1001)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkScan(t, []byte(tt.in))
		})
	}
	t.Run("depth 1001 is left to the go-sdk", func(t *testing.T) {
		if deep := []byte(strings.Repeat("[", 1001) + strings.Repeat("]", 1001)); scanValid(deep) || compactRawJSON(deep) {
			t.Errorf("got the value taken, want it refused")
		}
	})
}

func TestStringByteMask(t *testing.T) {
	check := func(word []byte) {
		want := -1
		for i, c := range word {
			if stringByte[c] {
				want = i
				break
			}
		}
		got := -1
		if m := stringByteMask(binary.LittleEndian.Uint64(word)); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != want {
			t.Fatalf("first special byte of %q: got %d, want %d", word, got, want)
		}
	}
	for c := range 256 {
		for pos := range 8 {
			word := []byte("abcdefgh")
			word[pos] = byte(c)
			check(word)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '\\', 'a', 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	for range 100000 {
		word := make([]byte, 8)
		for i := range word {
			word[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(word)
	}
}

func TestPlain(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"tools/call", true},
		{"<a&b>", true},
		{"a b~", true},
		{`a"b`, false},
		{`a\b`, false},
		{"a\x7f", false},
		{"a\tb", false},
		{"é", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := plain(tt.in); got != tt.want {
				t.Errorf("plain(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if got := plain([]byte(tt.in)); got != tt.want {
				t.Errorf("plain([]byte(%q)) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzJSONScan checks jsonScan and compactRawJSON against encoding/json.
func FuzzJSONScan(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2.5e-3,"\u00e9"]}`, ` [ true , null ] `, `"a\"b"`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkScan(t, b)
	})
}
