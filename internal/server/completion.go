package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion answers (the MCP limit).
const maxCompletions = 100

// MaxCompletionValueBytes bounds the argument value of completion/complete: a
// longer value is refused with -32602 naming the limit. A client completes
// what a user types, a prefix or a piece of a path far shorter than this, and
// the work of a completion grew with the value's length times the skills (a
// 2 MB value over 10,000 skills took 7-11 s of CPU).
// README "Limits per request".
const MaxCompletionValueBytes = 1024

// complete answers completion/complete: skill paths for get_skill's
// skill_path (the prompt's argument, and any prompt or resource argument
// named skill_path or path), skill names for an argument named name. Any
// other argument, and an unknown prompt, gets an empty completion: a client
// asking is not an error.
//
// A value over MaxCompletionValueBytes is refused with -32602; the work
// stops when ctx ends.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	empty := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil {
		return empty, nil
	}
	if n := len(p.Argument.Value); n > MaxCompletionValueBytes {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("completion/complete: the argument value is %d bytes, over the limit of %d bytes", n, MaxCompletionValueBytes)}
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
	return completeFrom(ctx, candidates, p.Argument.Value)
}

// completeFrom lists the candidates that start with value (case-insensitive),
// then those with a path segment that does (`pdf` finds document-skills/pdf),
// then those that contain it, at most maxCompletions of them. It stops when
// ctx ends, with ctx's error.
func completeFrom(ctx context.Context, candidates []string, value string) (*mcp.CompleteResult, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	segmentStart := "/" + v
	var prefix, segment, inside []string
	for i, c := range candidates {
		if i%ctxCheckEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		lc := strings.ToLower(c)
		switch {
		case strings.HasPrefix(lc, v):
			prefix = append(prefix, c)
		case strings.Contains(lc, segmentStart):
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
	return &mcp.CompleteResult{Completion: out}, nil
}
