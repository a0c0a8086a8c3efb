package server

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/jsonstr"
)

// firstStatefulProtocol is the first MCP protocol version whose tool results
// the go-sdk annotates after the handlers have run (resultType, serverInfo):
// results for sessions speaking it or a later one are left to the go-sdk.
const firstStatefulProtocol = "2026-07-28"

// encodedToolResult is a tool result of one text content whose JSON the
// server writes in one pass. The go-sdk marshals a *mcp.CallToolResult by
// marshaling its text content into a buffer, then the result around it into
// another, each pass escaping or compacting the whole text again, and copies
// it once more for the JSON-RPC response: at 10,000 skills that was a third of
// the CPU of a get_skill call, and for a whole-tree list_skills (2.5 MB) some
// 15 MB of buffers. Embedding the result keeps it an mcp.Result whose methods
// the go-sdk may still call.
type encodedToolResult struct {
	*mcp.CallToolResult
}

// MarshalJSON writes the bytes json.Marshal(r.CallToolResult) writes, for
// the one shape it takes (one text content, no metadata, annotations,
// structured content or input requests), and calls it for any other.
// TestEncodedToolResultEqualsSDK holds it to the go-sdk.
func (r encodedToolResult) MarshalJSON() ([]byte, error) {
	res := r.CallToolResult
	text, ok := plainText(res)
	if !ok {
		return json.Marshal(res)
	}
	const head, tail = `{"content":[{"type":"text","text":`, `}]`
	var out bytes.Buffer
	out.Grow(len(head) + len(text) + len(text)/8 + len(tail) + len(`,"isError":true}`))
	out.WriteString(head)
	jsonstr.Write(&out, text, true) // HTML-escaped, as the go-sdk's json.Marshal of the content is
	out.WriteString(tail)
	if res.IsError {
		out.WriteString(`,"isError":true`)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// plainText returns the text of a result made of one text content and
// nothing else.
func plainText(res *mcp.CallToolResult) (string, bool) {
	if res == nil || len(res.Meta) > 0 || res.StructuredContent != nil || res.InputRequests != nil || res.RequestState != "" || len(res.Content) != 1 {
		return "", false
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || tc == nil || len(tc.Meta) > 0 || tc.Annotations != nil {
		return "", false
	}
	return tc.Text, true
}

// encodeToolResults wraps the tool results of sessions of the protocols
// before firstStatefulProtocol in encodedToolResult.
func encodeToolResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		ctr, ok := res.(*mcp.CallToolResult)
		if !ok || ctr == nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return res, err
		}
		if p := ss.InitializeParams(); p == nil || p.ProtocolVersion >= firstStatefulProtocol {
			return res, err
		}
		return encodedToolResult{ctr}, nil
	}
}
