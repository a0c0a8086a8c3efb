package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type listSkillsArgs struct {
	Path string `json:"path"`
}

func (s *Server) addListSkills() {
	s.mcp.AddTool(&mcp.Tool{
		Name: "list_skills",
		Description: "Browse the skill tree: every skill with its description, keywords and how many assets and scripts it has. " +
			"Give `path` (for example \"ui\" or \"api/_index\") to see one sub-tree.",
		InputSchema: schema(map[string]any{
			"path": strProp("Optional sub-tree filter, e.g. \"ui\" or \"api/_index\""),
		}),
		OutputSchema: listSkillsOutputSchema(),
		Annotations:  readOnly("List skills"),
	}, s.handleListSkills)
}

func (s *Server) handleListSkills(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a listSkillsArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"path"}); err != nil {
		return errorResult("list_skills: " + err.Error()), nil
	}
	filter := strings.Trim(strings.TrimSpace(a.Path), "/")
	var text strings.Builder
	s.snapshot().WriteTreeJSON(&text, filter) // what jsonResult(Tree(filter)) gives, without the tree in between
	tree := text.String()
	// structuredContent is an object: the tree under "skills", written from
	// the same string as the text rather than copied into an object first
	// (2.5 MB at 10,000 skills).
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tree}}, StructuredContent: memberJSON{key: "skills", value: tree}}, nil
}
