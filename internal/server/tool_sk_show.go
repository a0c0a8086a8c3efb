package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// skillsShowArgs are skills_show's arguments.
type skillsShowArgs struct {
	Name string `json:"name" jsonschema:"Skill name or installName, as skills_list shows it"`
}

// skillsShowResult is skills_show's structured output.
type skillsShowResult struct {
	Name      string `json:"name" jsonschema:"The skill's name"`
	SkillFile string `json:"skillFile" jsonschema:"Markdown file of the skill, relative to its skills directory"`
	Body      string `json:"body" jsonschema:"Markdown body without the frontmatter"`
}

func (s *Server) addSkillsShow() {
	addTool(s, &mcp.Tool{
		Name:  "skills_show",
		Title: "Show skill",
		Description: "Read one skill's Markdown body (without its frontmatter). `name` is a skill name or installName from skills_list " +
			"(case-insensitive), or a skill-tree skill path.",
		InputSchema:  inputSchema[skillsShowArgs](nonEmpty("name")),
		OutputSchema: outputSchema[skillsShowResult](),
		Annotations:  readOnly("Show skill"),
	}, s.handleSkillsShow)
}

// handleSkillsShow answers skills_show, its structured content a value as
// `skill`'s is (handleSkill).
func (s *Server) handleSkillsShow(_ context.Context, _ *mcp.CallToolRequest, a skillsShowArgs) (*mcp.CallToolResult, any, error) {
	name := strings.TrimSpace(a.Name)
	if name == "" {
		return nil, nil, fail("skills_show: name must not be empty; skills_list shows the names")
	}
	snap := s.snapshot()
	if _, cands := snap.Lookup(name); len(cands) > 0 {
		return nil, nil, fail(ambiguousText(name, cands))
	}
	sk, ok := findForShow(snap, name)
	if !ok {
		return nil, nil, fail("Skill not found: " + name + ". skills_list shows the available names.")
	}
	body, err := snap.Body(sk)
	if err != nil {
		return nil, nil, domainError(err)
	}
	out := skillsShowResult{Name: catalogName(sk), SkillFile: sk.FilePath, Body: body}
	return structuredResult(body, out), nil, nil
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
