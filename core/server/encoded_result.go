package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// firstStatefulProtocol is the first MCP protocol version whose tool results
// the go-sdk annotates after the handlers have run (resultType, serverInfo):
// results for sessions speaking it or a later one are left to the go-sdk.
const firstStatefulProtocol = "2026-07-28"

// textToolResult is a tool result of one text content in a form the go-sdk's
// encoder writes in one pass. The go-sdk marshals a *mcp.CallToolResult
// through its MarshalJSON methods: the text content into one buffer (an
// escape pass), the result around it into another, then the response around
// that, where encoding/json compacts each marshaler's output again (a
// byte-by-byte pass over the whole text). At 10,000 skills those passes were
// a third of the CPU of a get_skill call, and for a whole-tree list_skills
// (2.5 MB of text) some 15 MB of buffers. This plain struct, an mcp.Result
// through mcp.ResultBase, is encoded by reflection in a single escape pass.
// Its JSON means the same as the go-sdk's; the bytes differ in one way: <, >
// and & in the text are written as they are, not as \u003c, \u003e, \u0026
// (the response encoder has HTML escaping off; the go-sdk's inner
// json.Marshal has it on).
type textToolResult struct {
	mcp.ResultBase
	Content []textPart `json:"content"`
	IsError bool       `json:"isError,omitempty"`
}

// textPart is a text content as the go-sdk writes it.
type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
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

// simplified returns the textToolResult of res, or nil when res is not one
// text content and nothing else.
func simplified(res *mcp.CallToolResult) *textToolResult {
	text, ok := plainText(res)
	if !ok {
		return nil
	}
	return &textToolResult{Content: []textPart{{Type: "text", Text: text}}, IsError: res.IsError}
}

// encodeToolResults replaces the one-text tool results of sessions of the
// protocols before firstStatefulProtocol by their textToolResult.
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
		if simple := simplified(ctr); simple != nil {
			return simple, nil
		}
		return res, err
	}
}
