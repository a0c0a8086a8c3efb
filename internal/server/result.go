package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

// errorBody is the JSON text of every failed tool call (spec README, Errors).
type errorBody struct {
	Error   bool   `json:"error"`
	Message string `json:"message"`
}

// jsonResult renders v compactly as the single text content of a result,
// and the same JSON as its structuredContent (v is a JSON object): the
// answer of a tool whose output schema is written by hand (the go-sdk
// neither encodes nor validates it).
func jsonResult(v any) *mcp.CallToolResult {
	text, err := compactJSON(v)
	if err != nil {
		return errorResult("internal error: encoding the result: " + err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}
}

// errorResult is a tool result with isError set and a message naming the
// problem, for the answers built outside a tool's handler (a panic
// recovered, a refresh that failed in the background).
func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: errorText(msg)}}}
}

// errorText is the JSON text of a failed tool call with that message.
func errorText(msg string) string {
	text, _ := compactJSON(errorBody{Error: true, Message: msg})
	return text
}

// failure is a tool call's failure as its handler returns it: the go-sdk
// makes it an isError result, typedToolCalls gives it the spec's text with
// msg as the message. It answers errors.Is for the error it wraps, if any.
type failure struct {
	msg string
	err error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.err }

// fail is a failure with a message for people.
func fail(msg string) error { return &failure{msg: msg} }

// textResult is a successful result whose one text content is text; the
// go-sdk adds the structured content from the handler's output.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// compactResult is textResult of v's compact JSON (spec 000: the text is
// JSON.stringify of the answer).
func compactResult(v any) (*mcp.CallToolResult, error) {
	text, err := compactJSON(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return textResult(text), nil
}

// compactJSON is JSON.stringify(v): compact, and without Go's HTML escaping of
// <, > and &, which would reach the model as \u003c in headers and templates.
func compactJSON(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// domainError maps an error from the index, sandbox or runners to a tool
// failure. Unexpected errors keep their text: every layer wraps with what it
// was doing.
func domainError(err error) error {
	switch {
	case errors.Is(err, core.ErrPathTraversal):
		return &failure{msg: "Path traversal rejected: " + err.Error(), err: err}
	default:
		return &failure{msg: upperFirst(err.Error()), err: err}
	}
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// roundScore rounds to 3 decimals for display (spec README: scores may be rounded).
func roundScore(f float64) float64 { return math.Round(f*1000) / 1000 }
