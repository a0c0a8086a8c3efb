package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/jsonstr"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
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
func preEncode(text string, structured structuredJSON, isError bool, meta json.RawMessage) *preEncodedToolResult {
	var out bytes.Buffer
	out.Grow(encodedSize(text, structured) + len(meta))
	writeEncoded(&out, text, structured, isError, meta)
	return &preEncodedToolResult{encoded: out.Bytes()}
}

// encodedSize is about the length of writeEncoded's JSON: the text plus an
// eighth for its escapes.
func encodedSize(text string, structured structuredJSON) int {
	return len(`{"content":[{"type":"text","text":}],"structuredContent":,"isError":true}`) + len(text) + len(text)/8 + structured.len()
}

// jsonWriter is what writeEncoded writes to: *bytes.Buffer and *bufio.Writer are.
type jsonWriter interface {
	jsonstr.Writer
	Write([]byte) (int, error)
}

// writeEncoded writes the JSON of a textToolResult of text to w, with meta
// (already encoded; nil for none) as its _meta.
func writeEncoded(w jsonWriter, text string, structured structuredJSON, isError bool, meta json.RawMessage) {
	if len(meta) > 0 {
		_, _ = w.WriteString(`{"_meta":`)
		_, _ = w.Write(meta)
		_, _ = w.WriteString(`,"content":[{"type":"text","text":`)
	} else {
		_, _ = w.WriteString(`{"content":[{"type":"text","text":`)
	}
	jsonstr.Write(w, text, false)
	_, _ = w.WriteString(`}]`)
	if structured.len() > 0 {
		_, _ = w.WriteString(`,"structuredContent":`)
		structured.write(w)
	}
	if isError {
		_, _ = w.WriteString(`,"isError":true`)
	}
	_ = w.WriteByte('}')
}

// structuredJSON is a structuredContent already encoded: raw, or a JSON
// object of one member, key, whose value is the JSON text value (how
// list_skills hands its tree once for both the text and the structured
// content, instead of a copy of it under "skills").
type structuredJSON struct {
	raw        json.RawMessage
	key, value string
}

// len is the length of the JSON; 0 for none.
func (s structuredJSON) len() int {
	if s.key == "" {
		return len(s.raw)
	}
	return len(`{"":}`) + len(s.key) + len(s.value)
}

func (s structuredJSON) write(w jsonWriter) {
	if s.key == "" {
		_, _ = w.Write(s.raw)
		return
	}
	_, _ = w.WriteString(`{"`)
	_, _ = w.WriteString(s.key)
	_, _ = w.WriteString(`":`)
	_, _ = w.WriteString(s.value)
	_ = w.WriteByte('}')
}

// memberJSON is a structuredContent of one member, key (plain: no character
// JSON escapes), whose value is already encoded JSON: the go-sdk marshals
// it as it marshals {key: json.RawMessage(value)}, and the encodings of this
// file write it without building that object.
type memberJSON struct {
	key, value string
}

// MarshalJSON returns the object.
func (m memberJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(m.key) + len(m.value) + len(`{"":}`))
	structuredJSON{key: m.key, value: m.value}.write(&b)
	return b.Bytes(), nil
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
	if res == nil || res.InputRequests != nil || res.RequestState != "" || len(res.Content) != 1 {
		return "", nil, false
	}
	structured := res.StructuredContent
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || tc == nil || len(tc.Meta) > 0 || tc.Annotations != nil {
		return "", nil, false
	}
	return tc.Text, structured, true
}

// simplifiedFor returns the textToolResult of res (its preEncodedToolResult
// from largeText bytes on), or nil when res is not one text content and
// nothing else, for a request handled under ctx: a result of largeDeferred
// bytes or more is written by the stdio connection from where it lies
// (stdio.Deferred) when the connection does that.
func simplifiedFor(ctx context.Context, res *mcp.CallToolResult) mcp.Result {
	text, sj, structured, ok := largeParts(res)
	if !ok {
		return nil
	}
	if sj == nil {
		return &textToolResult{ResultBase: mcp.ResultBase{Meta: res.Meta}, Content: []textPart{{Type: "text", Text: text}}, StructuredContent: structured, IsError: res.IsError}
	}
	var meta json.RawMessage
	if len(res.Meta) > 0 {
		var err error
		if meta, err = marshalNoHTML(res.Meta); err != nil {
			return nil // the go-sdk reports it
		}
	}
	if encodedSize(text, *sj) < largeDeferred || !stdio.CanDefer(ctx) {
		return preEncode(text, *sj, res.IsError, meta)
	}
	isError, parts := res.IsError, *sj
	return stdio.NewDeferred(ctx, func(w *bufio.Writer) { writeEncoded(w, text, parts, isError, meta) })
}

// largeDeferred is the size from which a result is deferred to the stdio
// connection: where the connection writes a large result in parts anyway.
const largeDeferred = 256 << 10

// largeParts returns the text of a one-text result and its structuredContent
// (structured), with the latter already encoded (sj) when the result is of
// largeText bytes or more; ok is false for any other result.
func largeParts(res *mcp.CallToolResult) (text string, sj *structuredJSON, structured any, ok bool) {
	text, structured, ok = plainText(res)
	if !ok {
		return "", nil, nil, false
	}
	var enc structuredJSON
	switch v := structured.(type) {
	case nil:
	case json.RawMessage:
		if v == nil {
			return text, nil, structured, true // null: never pre-encoded
		}
		enc.raw = v
	case memberJSON:
		enc = structuredJSON{key: v.key, value: v.value}
	default:
		if len(text) < largeText/2 {
			return text, nil, structured, true
		}
		// a large text usually comes with a large value: encoded once, here
		raw, err := marshalNoHTML(structured)
		if err != nil {
			return text, nil, structured, true // the go-sdk reports it
		}
		enc.raw = raw
	}
	if len(text)+enc.len() < largeText {
		return text, nil, structured, true
	}
	return text, &enc, structured, true
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
		if simple := simplifiedFor(ctx, ctr); simple != nil {
			return simple, nil
		}
		return res, err
	}
}
