package server

import (
	"encoding/json"
	"errors"
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
// and the same JSON as its structuredContent (v is a JSON object).
func jsonResult(v any) *mcp.CallToolResult {
	text, err := compactJSON(v)
	if err != nil {
		return errorResult("internal error: encoding the result: " + err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}
}

// errorResult is a tool result with isError set and a message naming the problem.
func errorResult(msg string) *mcp.CallToolResult {
	text, _ := compactJSON(errorBody{Error: true, Message: msg})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
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

// domainError maps an error from the index, sandbox or runners to a tool error.
// Unexpected errors keep their text: every layer wraps with what it was doing.
func domainError(err error) *mcp.CallToolResult {
	switch {
	case errors.Is(err, core.ErrPathTraversal):
		return errorResult("Path traversal rejected: " + err.Error())
	default:
		return errorResult(upperFirst(err.Error()))
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
