package stdio

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// nested is a message whose params nest depth-1 containers, so the whole line
// nests depth deep.
func nested(depth int) string {
	return `{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
}

// checkDecode fails when decodeFast takes a line the transport's old path
// would not have delivered as exactly the same message: the line must be
// valid JSON, jsonrpc.DecodeMessage must succeed on it, and both messages
// must be deeply equal (concrete type, id value and kind, method, raw bytes).
// It reports whether the fast path took the line.
func checkDecode(t testing.TB, line []byte) bool {
	t.Helper()
	got, ok := decodeFast(line)
	if !ok {
		return false
	}
	if !json.Valid(line) {
		t.Fatalf("decodeFast(%q) took a line that is not valid JSON", line)
	}
	want, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		t.Fatalf("decodeFast(%q) = %#v, want the go-sdk's error %v", line, got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeFast(%q) = %#v, want %#v", line, got, want)
	}
	return true
}

func TestDecodeFastMatchesDecodeMessage(t *testing.T) {
	tests := []struct {
		name, line string
		wantFast   bool
	}{
		{"call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"react login"}}}`, true},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
		{"members in another order", `{"params":{},"method":"ping","id":"a","jsonrpc":"2.0"}`, true},
		{"string id", `{"jsonrpc":"2.0","id":"req-7","method":"ping"}`, true},
		{"empty string id", `{"jsonrpc":"2.0","id":"","method":"ping"}`, true},
		{"string id with an escape", `{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false},
		{"string id in unicode", `{"jsonrpc":"2.0","id":"é","method":"ping"}`, false},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, true},
		{"zero id", `{"jsonrpc":"2.0","id":0,"method":"ping"}`, true},
		{"negative id", `{"jsonrpc":"2.0","id":-42,"method":"ping"}`, true},
		{"minus zero id", `{"jsonrpc":"2.0","id":-0,"method":"ping"}`, false},
		{"15-digit id", `{"jsonrpc":"2.0","id":999999999999999,"method":"ping"}`, true},
		{"16-digit id", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, false},
		{"id beyond int64", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, false},
		{"id beyond float64", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, false},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, false},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, false},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, false},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, false},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, false},
		{"response", `{"jsonrpc":"2.0","id":5,"result":{"roots":[]}}`, true},
		{"response with a null result", `{"jsonrpc":"2.0","id":5,"result":null}`, true},
		{"response without result", `{"jsonrpc":"2.0","id":5}`, true},
		{"error response", `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`, false},
		{"response with a null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, false},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, false},
		{"params on a response are ignored", `{"jsonrpc":"2.0","id":5,"result":1,"params":2}`, true},
		{"result on a request is ignored", `{"jsonrpc":"2.0","id":5,"method":"m","result":1}`, true},
		{"capitalised Method is not the method", `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, true},
		{"capitalised ID is not the id", `{"jsonrpc":"2.0","ID":1,"method":"ping"}`, true},
		{"capitalised Params are not the params", `{"jsonrpc":"2.0","id":1,"method":"ping","Params":{}}`, true},
		{"capitalised JSONRPC is not the version", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, false},
		{"escaped key", `{"jsonrpc":"2.0","id":1,"meth\u006fd":"ping"}`, false},
		{"non-ASCII key", `{"jsonrpc":"2.0","id":1,"method":"ping","ſ":1}`, false},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, false},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, false},
		{"duplicate params", `{"jsonrpc":"2.0","id":1,"method":"a","params":1,"params":2}`, false},
		{"duplicate version", `{"jsonrpc":"2.0","jsonrpc":null,"id":1,"method":"a"}`, false},
		{"duplicate unknown member", `{"jsonrpc":"2.0","x":1,"x":2,"id":1,"method":"a"}`, true},
		{"missing version", `{"id":1,"method":"ping"}`, false},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, false},
		{"numeric version", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, false},
		{"null version", `{"jsonrpc":null,"id":1,"method":"ping"}`, false},
		{"escaped version", `{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`, false},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, true},
		{"null method", `{"jsonrpc":"2.0","id":1,"method":null}`, false},
		{"numeric method", `{"jsonrpc":"2.0","id":1,"method":3}`, false},
		{"escaped method", `{"jsonrpc":"2.0","id":1,"method":"tools\/call"}`, false},
		{"unicode method", `{"jsonrpc":"2.0","id":1,"method":"pïng"}`, false},
		{"null params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, true},
		{"array params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,"a",null,true,false,-1.5e-3]}`, true},
		{"string params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, true},
		{"whitespace everywhere", "{ \"jsonrpc\" :\t\"2.0\" ,\r\"id\" : 1 , \"method\" : \"ping\" , \"params\" : { \"a\" : [ 1 , 2 ] } }", true},
		{"unicode escapes in params", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"\u00e9\ud83d\ude00\u2028\n\\\/"}}`, true},
		{"raw unicode in params", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"é😀` + "\u2028" + `"}}`, true},
		{"invalid UTF-8 in params", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"s\":\"\xff\xfe\"}}", true},
		{"lone surrogate escape in params", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"\ud800"}}`, true},
		{"unknown members of every kind", `{"jsonrpc":"2.0","a":{"b":[{}]},"c":[],"d":"e","f":1.0e+2,"g":true,"h":null,"id":1,"method":"m"}`, true},
		{"depth 1000", nested(1000), true},
		{"depth 1001", nested(1001), false},
		{"empty object", `{}`, false},
		{"top-level array", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false},
		{"top-level string", `"ping"`, false},
		{"top-level null", `null`, false},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, false},
		{"two objects", `{"jsonrpc":"2.0","id":1,"method":"ping"}{}`, false},
		{"trailing comma", `{"jsonrpc":"2.0","id":1,"method":"ping",}`, false},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, false},
		{"control character in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":\"a\tb\"}", false},
		{"bad escape", `{"jsonrpc":"2.0","id":1,"method":"m","params":"\x"}`, false},
		{"leading zero", `{"jsonrpc":"2.0","id":01,"method":"m"}`, false},
		{"bare minus", `{"jsonrpc":"2.0","id":1,"method":"m","params":-}`, false},
		{"single quotes", `{'jsonrpc':'2.0','id':1,'method':'m'}`, false},
		{"empty line", ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkDecode(t, []byte(tt.line)); got != tt.wantFast {
				t.Errorf("decodeFast took the line: got %v, want %v", got, tt.wantFast)
			}
		})
	}
}

// FuzzDecodeFast checks that whatever decodeFast takes, the go-sdk decodes to
// the same message; what it leaves goes through the go-sdk unchanged.
func FuzzDecodeFast(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_skill"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"x","result":{"a":[1,2.5,"\u00e9"]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkDecode(t, line)
	})
}
