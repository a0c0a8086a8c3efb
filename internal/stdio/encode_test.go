package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// checkEncode fails when appendFast builds a message other than the bytes
// jsonrpc.EncodeMessage returns for it, or touches what dst already held. It
// reports whether the fast path built the message.
func checkEncode(t testing.TB, msg jsonrpc.Message) bool {
	t.Helper()
	const prefix = "prefix:"
	got, ok := appendFast([]byte(prefix), msg)
	if !strings.HasPrefix(string(got), prefix) {
		t.Fatalf("appendFast(%#v) changed the bytes already in dst: %q", msg, got)
	}
	if !ok {
		return false
	}
	want, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		t.Fatalf("appendFast(%#v) = %q, want the go-sdk's error %v", msg, got, err)
	}
	if got := got[len(prefix):]; !bytes.Equal(got, want) {
		t.Fatalf("appendFast(%#v):\ngot  %q\nwant %q", msg, got, want)
	}
	return true
}

func mustID(t testing.TB, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAppendFastMatchesEncodeMessage(t *testing.T) {
	deep := func(depth int) json.RawMessage {
		return json.RawMessage(strings.Repeat("[", depth) + strings.Repeat("]", depth))
	}
	result := func(raw string) *jsonrpc.Response {
		return &jsonrpc.Response{ID: mustID(t, float64(3)), Result: json.RawMessage(raw)}
	}
	tests := []struct {
		name     string
		msg      jsonrpc.Message
		wantFast bool
	}{
		{"result", result(`{"content":[{"type":"text","text":"hello"}],"isError":false}`), true},
		{"HTML characters in the result", result(`{"text":"<a href=\"x\">&amp;</a>"}`), true},
		{"line and paragraph separators in the result", result("{\"text\":\"a\u2028b\u2029c\"}"), true},
		{"escapes in the result", result(`{"text":"\u003c\n\t\"\\\/\ud83d\ude00"}`), true},
		{"invalid UTF-8 in the result", result("{\"text\":\"\xff\xfe\"}"), true},
		{"scalar result", result(`42`), true},
		{"null result", result(`null`), true},
		{"result nested 1000 deep", &jsonrpc.Response{ID: mustID(t, float64(1)), Result: deep(1000)}, true},
		{"result nested 1001 deep", &jsonrpc.Response{ID: mustID(t, float64(1)), Result: deep(1001)}, false},
		{"result with whitespace", result(`{ "a" : [1, 2] }`), false},
		{"result with a trailing newline", result("{}\n"), false},
		{"invalid result", result(`{"a":}`), false},
		{"two values as result", result(`{}{}`), false},
		{"no result", &jsonrpc.Response{ID: mustID(t, float64(3))}, false},
		{"error", &jsonrpc.Response{ID: mustID(t, float64(3)), Error: &jsonrpc.Error{Code: -32601, Message: "method not found"}}, false},
		{"plain error", &jsonrpc.Response{ID: mustID(t, float64(3)), Error: errors.New("boom")}, false},
		{"no id", &jsonrpc.Response{Result: json.RawMessage(`{}`)}, false},
		{"zero id", &jsonrpc.Response{ID: mustID(t, float64(0)), Result: json.RawMessage(`{}`)}, true},
		{"negative id", &jsonrpc.Response{ID: mustID(t, float64(-9)), Result: json.RawMessage(`{}`)}, true},
		{"largest id", &jsonrpc.Response{ID: mustID(t, float64(math.MaxInt64)), Result: json.RawMessage(`{}`)}, true},
		{"string id", &jsonrpc.Response{ID: mustID(t, "req-1"), Result: json.RawMessage(`{}`)}, true},
		{"empty string id", &jsonrpc.Response{ID: mustID(t, ""), Result: json.RawMessage(`{}`)}, true},
		{"string id with HTML characters", &jsonrpc.Response{ID: mustID(t, "<a&b>"), Result: json.RawMessage(`{}`)}, true},
		{"string id with a quote", &jsonrpc.Response{ID: mustID(t, `a"b`), Result: json.RawMessage(`{}`)}, false},
		{"string id in unicode", &jsonrpc.Response{ID: mustID(t, "é\u2028"), Result: json.RawMessage(`{}`)}, false},
		{"notification", &jsonrpc.Request{Method: "notifications/tools/list_changed"}, true},
		{"notification with params", &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info","data":"<&>"}`)}, true},
		{"notification with params to compact", &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level": "info"}`)}, false},
		{"call", &jsonrpc.Request{ID: mustID(t, float64(1)), Method: "roots/list", Params: json.RawMessage(`{}`)}, true},
		{"call with a string id", &jsonrpc.Request{ID: mustID(t, "s-1"), Method: "ping"}, true},
		{"empty method", &jsonrpc.Request{ID: mustID(t, float64(1))}, true},
		{"method with HTML characters", &jsonrpc.Request{Method: "a<b>&c"}, true},
		{"method with a quote", &jsonrpc.Request{Method: `a"b`}, false},
		{"method in unicode", &jsonrpc.Request{Method: "pïng"}, false},
		{"invalid params", &jsonrpc.Request{Method: "m", Params: json.RawMessage(`{`)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkEncode(t, tt.msg); got != (tt.wantFast && rawVerbatim) {
				t.Errorf("appendFast built the message: got %v, want %v", got, tt.wantFast)
			}
		})
	}
}

// FuzzAppendFast checks that whatever appendFast builds, EncodeMessage writes
// byte for byte, for requests and responses of any id, method and raw payload.
func FuzzAppendFast(f *testing.F) {
	f.Add(false, int64(1), "", "", []byte(`{"content":[{"type":"text","text":"<b>&\u2028"}]}`))
	f.Add(true, int64(0), "", "notifications/message", []byte(`{"level":"info"}`))
	f.Add(true, int64(7), "s", "roots/list", []byte(nil))
	f.Fuzz(func(t *testing.T, request bool, num int64, sid, method string, raw []byte) {
		var id jsonrpc.ID
		var err error
		switch {
		case sid != "":
			id, err = jsonrpc.MakeID(sid)
		case num != 0:
			id, err = jsonrpc.MakeID(float64(num))
		}
		if err != nil {
			t.Fatal(err)
		}
		if request {
			checkEncode(t, &jsonrpc.Request{ID: id, Method: method, Params: raw})
		} else {
			checkEncode(t, &jsonrpc.Response{ID: id, Result: raw})
		}
	})
}

// appendFast appends to dst the whole line appendFastHead proves equal to
// jsonrpc.EncodeMessage(msg): head, raw, then "}".
func appendFast(dst []byte, msg jsonrpc.Message) ([]byte, bool) {
	head, raw, ok := appendFastHead(dst, msg)
	if !ok {
		return dst, false
	}
	return append(append(head, raw...), '}'), true
}
