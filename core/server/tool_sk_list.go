package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

type skillsListArgs struct {
	Query       string `json:"query"`
	IncludeBody bool   `json:"includeBody"`
}

// skillsListResult is file 001's skills.list output.
type skillsListResult struct {
	Skills []skillSummary `json:"skills"`
}

func (s *Server) addSkillsList() {
	s.mcp.AddTool(&mcp.Tool{
		Name:  "skills_list",
		Title: "List skills",
		Description: "List every skill with its metadata (installName, name, description, skillPath, skillFile), sorted by installName. " +
			"Give `query` to keep only skills whose install name, name or description contain it (case-insensitive); " +
			"set `includeBody` to get each skill's Markdown body without its frontmatter.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query":       strProp("Optional substring filter applied to install name, meta.name, or description"),
				"includeBody": map[string]any{"type": "boolean", "description": "Include the SKILL.md body (minus YAML front-matter) in the structured payload"},
			},
			"additionalProperties": false,
		},
		OutputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"skills": map[string]any{"type": "array", "items": skillSummarySchema()},
			},
			"required": []string{"skills"},
		},
		Annotations: readOnly("List skills"),
	}, s.handleSkillsList)
}

func (s *Server) handleSkillsList(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillsListArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"query", "includeBody"}); err != nil {
		return errorResult("skills_list: " + err.Error()), nil
	}
	query := fold(strings.TrimSpace(a.Query))
	snap := s.snapshot()
	skills := snap.Skills()
	sortByInstallName(skills)
	out := skillsListResult{Skills: []skillSummary{}}
	for _, sk := range skills {
		if query == "" || listMatches(sk, query) {
			summary, err := summarize(snap, sk, a.IncludeBody)
			if err != nil {
				return errorResult("skills_list: " + err.Error()), nil
			}
			out.Skills = append(out.Skills, summary)
		}
	}
	var text strings.Builder
	text.WriteString(countNoun(len(out.Skills)) + " matched.")
	summaryLines(&text, out.Skills)
	return structuredResult(text.String(), out), nil
}

// listMatches reports whether the folded query is a substring of sk's install
// name, name or description (file 001's skills.list filter).
func listMatches(sk *core.Skill, query string) bool {
	for _, field := range []string{installName(sk), sk.Name, sk.Description} {
		if strings.Contains(fold(field), query) {
			return true
		}
	}
	return false
}
