package server

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

// errorBody is the JSON text of every failed tool call (spec README, Errors).
type errorBody struct {
	Error   bool   `json:"error"`
	Message string `json:"message"`
}

// jsonResult renders v compactly as the single text content of a result.
func jsonResult(v any) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return errorResult("internal error: encoding the result: " + err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// errorResult is a tool result with isError set and a message naming the problem.
func errorResult(msg string) *mcp.CallToolResult {
	b, _ := json.Marshal(errorBody{Error: true, Message: msg})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
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
