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
//
// StructuredContent is what the handler gave: JSON already encoded
// (jsonResult's json.RawMessage) or a Go value (structuredResult's), encoded
// here by reflection in the same pass as the rest, as the go-sdk encodes it.
type textToolResult struct {
	mcp.ResultBase
	Content           []textPart `json:"content"`
	StructuredContent any        `json:"structuredContent,omitempty"`
	IsError           bool       `json:"isError,omitempty"`
}

// largeText is the size from which a text result is written by
// preEncodedToolResult instead: reflection appends the escaped text into an
// encoder buffer that doubles as it grows, and for a 2.5 MB list_skills
// answer those buffers raised the server's peak memory by about 10 MB.
const largeText = 64 << 10

// preEncodedToolResult is a textToolResult of a large text, encoded once
// into a buffer of the right size; the response encoder then copies it with
// one compacting pass (about 10 ms for 2.5 MB, against 15 MB of buffers).
type preEncodedToolResult struct {
	mcp.ResultBase
	encoded []byte
}

// MarshalJSON returns the JSON written when the result was made.
func (r *preEncodedToolResult) MarshalJSON() ([]byte, error) { return r.encoded, nil }

// preEncode writes the JSON of a textToolResult of text: the bytes the
// response encoder writes for it (HTML characters as they are).
func preEncode(text string, structured json.RawMessage, isError bool) *preEncodedToolResult {
	const head, tail, sc = `{"content":[{"type":"text","text":`, `}]`, `,"structuredContent":`
	var out bytes.Buffer
	out.Grow(len(head) + len(text) + len(text)/8 + len(tail) + len(sc) + len(structured) + len(`,"isError":true}`))
	out.WriteString(head)
	jsonstr.Write(&out, text, false)
	out.WriteString(tail)
	if len(structured) > 0 {
		out.WriteString(sc)
		out.Write(structured)
	}
	if isError {
		out.WriteString(`,"isError":true`)
	}
	out.WriteByte('}')
	return &preEncodedToolResult{encoded: out.Bytes()}
}

// textPart is a text content as the go-sdk writes it.
type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// plainText returns the text of a result made of one text content and
// nothing else but, perhaps, a structuredContent, which it returns too: JSON
// already encoded (jsonResult's) or a Go value (structuredResult's).
func plainText(res *mcp.CallToolResult) (string, any, bool) {
	if res == nil || len(res.Meta) > 0 || res.InputRequests != nil || res.RequestState != "" || len(res.Content) != 1 {
		return "", nil, false
	}
	structured := res.StructuredContent
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || tc == nil || len(tc.Meta) > 0 || tc.Annotations != nil {
		return "", nil, false
	}
	return tc.Text, structured, true
}

// simplified returns the textToolResult of res (its preEncodedToolResult
// from largeText bytes on), or nil when res is not one text content and
// nothing else.
func simplified(res *mcp.CallToolResult) mcp.Result {
	text, structured, ok := plainText(res)
	if !ok {
		return nil
	}
	raw, isRaw := structured.(json.RawMessage)
	if !isRaw && structured != nil && len(text) >= largeText/2 {
		// a large text usually comes with a large value: encoded once, here
		var err error
		if raw, err = marshalNoHTML(structured); err != nil {
			return nil // the go-sdk reports it
		}
		isRaw = true
	}
	if (structured == nil || isRaw && raw != nil) && len(text)+len(raw) >= largeText {
		return preEncode(text, raw, res.IsError)
	}
	return &textToolResult{Content: []textPart{{Type: "text", Text: text}}, StructuredContent: structured, IsError: res.IsError}
}

// marshalNoHTML is json.Marshal without HTML escaping and without the
// trailing newline of an Encoder: what the response encoder writes for v.
func marshalNoHTML(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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
