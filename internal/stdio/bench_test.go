package stdio

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// getSkillLines returns a get_skill tools/call line and an answer shaped as
// the server's for one skill of a generated corpus: a single match whose
// content is a few kilobytes of Markdown with quotes, newlines and non-ASCII
// text to escape, plus two assets.
func getSkillLines(b *testing.B) (call []byte, answer *jsonrpc.Response) {
	b.Helper()
	var md strings.Builder
	md.WriteString("# Retry cache\n\nUse the retry-cache for the API with Redis.\n\n")
	for i := range 40 {
		fmt.Fprintf(&md, "- Step %d: call `client.Get(\"key-%d\")`, then check the TTL (≤ 30 s) and the \"stale\" flag.\n", i, i)
	}
	text, err := json.Marshal(map[string]any{
		"skill_path":  "backend/api/retry-cache",
		"content":     md.String(),
		"assets":      []map[string]string{{"path": "backend/api/retry-cache/templates/config.yaml"}, {"path": "backend/api/retry-cache/scripts/check.sh"}},
		"match_score": 0.751,
	})
	if err != nil {
		b.Fatal(err)
	}
	result, err := json.Marshal(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}})
	if err != nil {
		b.Fatal(err)
	}
	call = []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"the retry-cache for the api with redis"}}}`)
	id, err := jsonrpc.MakeID(float64(2))
	if err != nil {
		b.Fatal(err)
	}
	return call, &jsonrpc.Response{ID: id, Result: result}
}

// BenchmarkStdioDecode compares the transport's two ways of reading a
// get_skill call: json.Valid plus the go-sdk's DecodeMessage, and decodeFast.
func BenchmarkStdioDecode(b *testing.B) {
	call, _ := getSkillLines(b)
	b.Run("go-sdk", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(call)))
		for b.Loop() {
			if !json.Valid(call) {
				b.Fatal("invalid")
			}
			if _, err := jsonrpc.DecodeMessage(call); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(call)))
		for b.Loop() {
			if _, ok := decodeFast(call); !ok {
				b.Fatal("not taken")
			}
		}
	})
}

// BenchmarkStdioEncode compares the transport's two ways of writing a
// get_skill answer line: EncodeMessage plus the newline, and appendFast into
// a reused buffer.
func BenchmarkStdioEncode(b *testing.B) {
	_, answer := getSkillLines(b)
	b.Run("go-sdk", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer.Result)))
		for b.Loop() {
			data, err := jsonrpc.EncodeMessage(answer)
			if err != nil {
				b.Fatal(err)
			}
			_ = append(data, '\n')
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer.Result)))
		var buf []byte
		for b.Loop() {
			var ok bool
			if buf, ok = appendFast(buf[:0], answer); !ok {
				b.Fatal("not taken")
			}
			buf = append(buf, '\n')
		}
	})
}
