package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion answers (the MCP limit).
const maxCompletions = 100

// complete answers completion/complete: skill paths for get_skill's
// skill_path (the prompt's argument, and any prompt or resource argument
// named skill_path or path), skill names for an argument named name. Any
// other argument, and an unknown prompt, gets an empty completion: a client
// asking is not an error.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	empty := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil {
		return empty, nil
	}
	snap := s.snapshot()
	var candidates []string
	switch p.Argument.Name {
	case promptArgSkillPath, "path":
		candidates = snap.Paths()
	case "name":
		candidates = snap.Names()
	default:
		return empty, nil
	}
	if p.Ref.Type == "ref/prompt" && p.Ref.Name != getSkillPrompt {
		return empty, nil // the skill prompts take free text only
	}
	return completeFrom(candidates, p.Argument.Value), nil
}

// completeFrom lists the candidates that start with value (case-insensitive),
// then those with a path segment that does (`pdf` finds document-skills/pdf),
// then those that contain it, at most maxCompletions of them.
func completeFrom(candidates []string, value string) *mcp.CompleteResult {
	v := strings.ToLower(strings.TrimSpace(value))
	var prefix, segment, inside []string
	for _, c := range candidates {
		lc := strings.ToLower(c)
		switch {
		case strings.HasPrefix(lc, v):
			prefix = append(prefix, c)
		case strings.Contains(lc, "/"+v):
			segment = append(segment, c)
		case strings.Contains(lc, v):
			inside = append(inside, c)
		}
	}
	all := append(append(prefix, segment...), inside...)
	out := mcp.CompletionResultDetails{Values: []string{}, Total: len(all)}
	if len(all) > maxCompletions {
		all, out.HasMore = all[:maxCompletions], true
	}
	out.Values = append(out.Values, all...)
	return &mcp.CompleteResult{Completion: out}
}
