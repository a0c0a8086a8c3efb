package server

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// responseJSON encodes v the way the go-sdk encodes a response's result: an
// Encoder with HTML escaping off, without the trailing newline.
func responseJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// sameResult checks that textToolResult encodes to what the go-sdk encodes
// res to: the same JSON value, and the same bytes but for the HTML escapes
// the go-sdk's inner json.Marshal adds.
func sameResult(t testing.TB, res *mcp.CallToolResult) {
	t.Helper()
	text, structured := plainTextOf(t, res)
	raw, err := marshalNoHTML(structured)
	if structured == nil {
		raw = nil
	} else if r, ok := structured.(json.RawMessage); ok {
		raw = r
	} else if err != nil {
		t.Fatal(err)
	}
	var meta json.RawMessage
	if len(res.Meta) > 0 {
		meta = responseJSON(t, res.Meta)
	}
	simples := []mcp.Result{&textToolResult{ResultBase: mcp.ResultBase{Meta: res.Meta}, Content: []textPart{{"text", text}}, StructuredContent: structured, IsError: res.IsError}, simplified(res)}
	if r, ok := structured.(json.RawMessage); !ok || r != nil { // a null structuredContent is never pre-encoded
		sj := structuredJSON{raw: raw}
		if m, ok := structured.(memberJSON); ok {
			sj = structuredJSON{key: m.key, value: m.value}
		}
		simples = append(simples, preEncode(text, sj, res.IsError, meta))
	}
	for _, simple := range simples {
		sameEncoding(t, res, simple)
	}
	if simplified(res) == nil {
		t.Fatal("simplified: got nil for a one-text result")
	}
}

func plainTextOf(t testing.TB, res *mcp.CallToolResult) (string, any) {
	t.Helper()
	text, structured, ok := plainText(res)
	if !ok {
		t.Fatal("not a one-text result")
	}
	return text, structured
}

// sameEncoding compares the response encodings of res and simple.
func sameEncoding(t testing.TB, res *mcp.CallToolResult, simple mcp.Result) {
	t.Helper()
	want, got := responseJSON(t, res), responseJSON(t, simple)
	var wantV, gotV any
	if err := json.Unmarshal(want, &wantV); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &gotV); err != nil {
		t.Fatalf("textToolResult is not valid JSON: %v\n%s", err, got)
	}
	if !reflect.DeepEqual(gotV, wantV) {
		t.Errorf("got value %v, want %v", gotV, wantV)
	}
	unescaped := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(want))
	if !strings.Contains(string(want), `\\u00`) && string(got) != unescaped {
		t.Errorf("got  %s\nwant %s", got, unescaped)
	}
}

// TestTextToolResultEqualsSDK: a one-text tool result means the same, and
// reads the same, as the go-sdk's encoding of it; any other shape is left to
// the go-sdk.
func TestTextToolResultEqualsSDK(t *testing.T) {
	t.Parallel()
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	tests := []struct {
		name  string
		res   *mcp.CallToolResult
		plain bool
	}{
		{"plain", &mcp.CallToolResult{Content: text(`{"skill_path":"a/b","content":"x"}`)}, true},
		{"empty text", &mcp.CallToolResult{Content: text("")}, true},
		{"error", &mcp.CallToolResult{IsError: true, Content: text(`{"error":true,"message":"no"}`)}, true},
		{"html and separators", &mcp.CallToolResult{Content: text("<b>&amp;</b> \u2028\u2029 é 🙂")}, true},
		{"control and invalid UTF-8", &mcp.CallToolResult{Content: text("\x00\x01\b\f\n\r\t\x7f \xff\xfe \"\\")}, true},
		{"large", &mcp.CallToolResult{Content: text(strings.Repeat(`{"a":"<b>"}`, largeText/8))}, true},
		{"structured", &mcp.CallToolResult{Content: text("t"), StructuredContent: map[string]any{"a": 1, "h": "<b>&"}}, true},
		{"structured struct", &mcp.CallToolResult{Content: text("t"), StructuredContent: struct {
			Name string `json:"name"`
			N    int    `json:"n,omitempty"`
		}{Name: "x<y"}}, true},
		{"large structured value", &mcp.CallToolResult{Content: text(strings.Repeat("y", largeText)), StructuredContent: map[string]any{"content": strings.Repeat("y", largeText)}}, true},
		{"nil structured JSON", &mcp.CallToolResult{Content: text("t"), StructuredContent: json.RawMessage(nil)}, true},
		{"structured JSON", &mcp.CallToolResult{Content: text(`{"a":"<b>"}`), StructuredContent: json.RawMessage(`{"a":"<b>"}`)}, true},
		{"large structured JSON", &mcp.CallToolResult{Content: text(strings.Repeat("x", largeText)), StructuredContent: json.RawMessage(`{"skills":[]}`)}, true},
		{"meta", &mcp.CallToolResult{Meta: mcp.Meta{"k": "v"}, Content: text("t")}, true},
		{"large with meta", &mcp.CallToolResult{Meta: mcp.Meta{"io.github.skills-mcp/provenance": map[string]any{"commit": "<c>"}}, Content: text(strings.Repeat("z", largeText)),
			StructuredContent: json.RawMessage(`{"a":1}`)}, true},
		{"two contents", &mcp.CallToolResult{Content: append(text("a"), &mcp.TextContent{Text: "b"})}, false},
		{"no content", &mcp.CallToolResult{Content: []mcp.Content{}}, false},
		{"annotated", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "t", Annotations: &mcp.Annotations{Priority: 1}}}}, false},
		{"image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := simplified(tt.res) != nil; got != tt.plain {
				t.Fatalf("simplified: got a result %v, want %v", got, tt.plain)
			}
			if tt.plain {
				sameResult(t, tt.res)
				_, pre := simplified(tt.res).(*preEncodedToolResult)
				text, structured := plainTextOf(t, tt.res)
				size := 0
				if raw, ok := structured.(json.RawMessage); ok {
					size = len(raw)
					if raw == nil {
						size = -len(text) // null: never pre-encoded
					}
				} else if structured != nil && len(text) >= largeText/2 {
					size = largeText // encoded beforehand: large
				}
				if want := len(text)+size >= largeText; pre != want {
					t.Errorf("pre-encoded: got %v, want %v (text of %d bytes)", pre, want, len(text))
				}
			}
		})
	}
}

// FuzzTextToolResult holds textToolResult to the go-sdk's encoding for any text.
func FuzzTextToolResult(f *testing.F) {
	for _, s := range []string{"", "plain", "<>&", "\u2028", "\xff", "\"\\\x00", `\u003c`} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, isError bool) {
		sameResult(t, &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: text}}})
	})
}

// simplified is simplifiedFor outside a stdio connection.
func simplified(res *mcp.CallToolResult) mcp.Result {
	return simplifiedFor(context.Background(), res)
}
