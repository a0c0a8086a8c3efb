package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

type skillsShowArgs struct {
	Name string `json:"name"`
}

// skillsShowResult is skills_show's structured output.
type skillsShowResult struct {
	Name      string `json:"name"`
	SkillFile string `json:"skillFile"`
	Body      string `json:"body"`
}

func (s *Server) addSkillsShow() {
	s.mcp.AddTool(&mcp.Tool{
		Name:  "skills_show",
		Title: "Show skill",
		Description: "Read one skill's Markdown body (without its frontmatter). `name` is a skill name or installName from skills_list " +
			"(case-insensitive), or a skill-tree skill path.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name": map[string]any{"type": "string", "minLength": 1, "description": "Skill name or installName, as skills_list shows it"},
			},
			"required":             []string{"name"},
			"additionalProperties": false,
		},
		OutputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":      strProp("The skill's name"),
				"skillFile": strProp("Markdown file of the skill, relative to its skills directory"),
				"body":      strProp("Markdown body without the frontmatter"),
			},
			"required": []string{"name", "skillFile", "body"},
		},
		Annotations: readOnly("Show skill"),
	}, s.handleSkillsShow)
}

func (s *Server) handleSkillsShow(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillsShowArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"name"}, "name"); err != nil {
		return errorResult("skills_show: " + err.Error()), nil
	}
	name := strings.TrimSpace(a.Name)
	if name == "" {
		return errorResult("skills_show: name must not be empty; skills_list shows the names"), nil
	}
	snap := s.snapshot()
	if _, cands := snap.Lookup(name); len(cands) > 0 {
		return errorResult(ambiguousText(name, cands)), nil
	}
	sk, ok := findForShow(snap, name)
	if !ok {
		return errorResult("Skill not found: " + name + ". skills_list shows the available names."), nil
	}
	body, err := snap.Body(sk)
	if err != nil {
		return domainError(err), nil
	}
	out := skillsShowResult{Name: catalogName(sk), SkillFile: sk.FilePath, Body: body}
	return structuredResult(body, out), nil
}

// findForShow resolves a name the way `skill` does, then falls back to an
// Agent Skill's installName (its folder), case-insensitively.
func findForShow(snap *index.Snapshot, name string) (*core.Skill, bool) {
	if sk, ok := snap.ByName(name); ok {
		return sk, true
	}
	skills := snap.Skills()
	sortByInstallName(skills)
	for _, sk := range skills {
		if sk.Format == core.FormatAgentSkill && strings.EqualFold(installName(sk), name) {
			return sk, true
		}
	}
	return nil, false
}
