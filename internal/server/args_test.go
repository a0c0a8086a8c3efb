package server_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/server"
)

// TestTypedToolArguments: the go-sdk checks every call's arguments against
// the tool's inferred input schema; its refusal is an isError result in the
// spec's error shape, naming every unknown and missing argument. A null
// argument is one left out, and null arguments none at all.
func TestTypedToolArguments(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetCore, server.ToolSetSk))
	tests := []struct {
		name, tool string
		args       json.RawMessage
		want       []string // "" entries: a success
	}{
		{"unknown and missing named together", "get_asset", json.RawMessage(`{"skill_path":"ui/react/auth","path":"x"}`),
			[]string{"get_asset: unknown argument(s): path (allowed: file, skill_path)", "missing required argument(s): file"}},
		{"null arguments are none", "skills_search", json.RawMessage(`null`), []string{"skills_search: missing required argument(s): query"}},
		{"a null argument is left out", "skills_search", json.RawMessage(`{"query":"git","limit":null}`), nil},
		{"a null required argument is missing", "get_asset", json.RawMessage(`{"skill_path":null,"file":"a"}`), []string{"missing required argument(s): skill_path"}},
		{"arguments not an object", "list_skills", json.RawMessage(`[1]`), []string{"list_skills: arguments must be a JSON object"}},
		{"refresh_skills takes none", "refresh_skills", json.RawMessage(`{"x":1}`), []string{"unknown argument(s): x (this tool takes none)"}},
		{"limit out of bounds", "skills_search", json.RawMessage(`{"query":"git","limit":0}`), []string{"limit must be an integer from 1 to 25, got 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil {
				t.Fatalf("got a protocol error %v, want a tool result", err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if tt.want == nil {
				if res.IsError {
					t.Fatalf("got error %s, want a success", text)
				}
				return
			}
			var body struct {
				Error   bool   `json:"error"`
				Message string `json:"message"`
			}
			if !res.IsError || json.Unmarshal([]byte(text), &body) != nil || !body.Error {
				t.Fatalf("got %s (isError %v), want {\"error\":true,\"message\":…}", text, res.IsError)
			}
			mustContain(t, body.Message, tt.want...)
			if res.StructuredContent != nil {
				t.Errorf("an error result carries structuredContent %v", res.StructuredContent)
			}
		})
	}
}

// TestTypedToolErrorsCarryNoStructuredContent: a typed tool's failure (an
// unknown skill for skills_show) is the spec's error text and no
// structuredContent, though its output type has a zero value.
func TestTypedToolErrorsCarryNoStructuredContent(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetSk))
	res := h.callFull(t, "skills_show", map[string]any{"name": "no-such-skill"})
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("got isError %v, structuredContent %v; want an error without structured content", res.IsError, res.StructuredContent)
	}
	mustContain(t, h.callError(t, "skills_show", map[string]any{"name": "no-such-skill"}), "Skill not found: no-such-skill")
}
