package main

import (
	"fmt"
	"slices"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// toolSample is what one server serving every tool set gave for the tools
// measured against the floor beside get_skill: skills_search (a query naming
// the single-match skill's keywords) and the `skill` tool (that skill by name).
type toolSample struct {
	search, skill latencies
	// searchBytes and skillBytes are the lengths of their JSON results.
	searchBytes, skillBytes int
}

// allToolSets is SKILLS_TOOLS for the server that measures them.
const allToolSets = "SKILLS_TOOLS=core,skill,sk"

// measureMoreTools spawns one server with every tool set and measures
// skills_search and the skill tool, n calls each, one at a time.
func measureMoreTools(st settings, dir string, c *corpus.Corpus, ctxs corpus.Contexts, n int) (toolSample, error) {
	var s toolSample
	i := slices.IndexFunc(c.Skills, func(sk corpus.Skill) bool { return sk.Path == ctxs.SinglePath })
	if i < 0 {
		return s, fmt.Errorf("the single-match skill %s is not in the corpus plan", ctxs.SinglePath)
	}
	p, err := startServer(st.bin, dir, st.args, append(slices.Clone(st.env), allToolSets))
	if err != nil {
		return s, err
	}
	defer p.stop()
	search := map[string]any{"query": ctxs.Single}
	skill := map[string]any{"name": c.Skills[i].Path} // a tree skill's name in the skill tool is its path; an Agent Skill's path loads it too
	for _, w := range []struct {
		tool string
		args map[string]any
	}{{"skills_search", search}, {"skill", skill}} {
		if err := warmUpTool(p.client, w.tool, w.args); err != nil {
			return s, err
		}
	}
	if s.searchBytes, err = p.client.callToolSize("skills_search", search); err != nil {
		return s, err
	}
	if s.skillBytes, err = p.client.callToolSize("skill", skill); err != nil {
		return s, err
	}
	if _, err := untilIdle(p.pid()); err != nil {
		return s, err
	}
	if s.search, err = sequentialTool(p, "skills_search", search, n); err != nil {
		return s, err
	}
	if s.skill, err = sequentialTool(p, "skill", skill, n); err != nil {
		return s, err
	}
	return s, nil
}
