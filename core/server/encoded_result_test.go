package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEncodedToolResultEqualsSDK: encodedToolResult marshals to the bytes
// the go-sdk's own marshaling gives, for the shape it writes itself and for
// the shapes it hands back.
func TestEncodedToolResultEqualsSDK(t *testing.T) {
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
		{"structured", &mcp.CallToolResult{Content: text("t"), StructuredContent: map[string]any{"a": 1}}, false},
		{"meta", &mcp.CallToolResult{Meta: mcp.Meta{"k": "v"}, Content: text("t")}, false},
		{"two contents", &mcp.CallToolResult{Content: append(text("a"), &mcp.TextContent{Text: "b"})}, false},
		{"no content", &mcp.CallToolResult{Content: []mcp.Content{}}, false},
		{"annotated", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "t", Annotations: &mcp.Annotations{Priority: 1}}}}, false},
		{"image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.res)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(encodedToolResult{tt.res})
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("got %s, %v\nwant %s", got, err, want)
			}
			if _, plain := plainText(tt.res); plain != tt.plain {
				t.Errorf("plainText: got %v, want %v", plain, tt.plain)
			}
		})
	}
}

// FuzzEncodedToolResult holds encodedToolResult to the go-sdk for any text.
func FuzzEncodedToolResult(f *testing.F) {
	for _, s := range []string{"", "plain", "<>&", "\u2028", "\xff", "\"\\\x00"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, isError bool) {
		res := &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
		want, err := json.Marshal(res)
		if err != nil {
			t.Skip()
		}
		got, err := json.Marshal(encodedToolResult{res})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("got %s, %v; want %s", got, err, want)
		}
	})
}
