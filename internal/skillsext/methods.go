package skillsext

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
)

// resultTypeComplete is the resultType of every result of the extension.
const resultTypeComplete = "complete"

// skillsPageSize is the number of skills in one skills/list page; an entry is
// never split across pages.
const skillsPageSize = 50

// skillResource is one file of a skill entry.
type skillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// skillEntry is the Skill object of skills/list and skills/get.
type skillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   []skillResource `json:"resources"`
}

// listSkillsParams are the params of skills/list.
type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// listSkillsResult is the result of skills/list.
type listSkillsResult struct {
	mcp.ResultBase
	ResultType string       `json:"resultType"`
	Skills     []skillEntry `json:"skills"`
	NextCursor string       `json:"nextCursor,omitempty"`
	mcp.Cacheable
}

// getSkillParams are the params of skills/get.
type getSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// getSkillResult is the result of skills/get.
type getSkillResult struct {
	mcp.ResultBase
	ResultType string     `json:"resultType"`
	Skill      skillEntry `json:"skill"`
	mcp.Cacheable
}

// listSkills serves skills/list: every served skill sorted by URI, in pages of
// skillsPageSize. A cursor names the last URI of the previous page, so a
// rebuild between pages neither repeats nor skips a skill that stays.
func (e *Extension) listSkills(_ context.Context, _ *mcp.ServerSession, p *listSkillsParams) (*listSkillsResult, error) {
	after := ""
	if p != nil {
		after = p.Cursor
	}
	v := e.view()
	page, next, err := cursor.Page(v.skills, func(ss *servedSkill) string { return ss.uri }, methodSkillsList, after, skillsPageSize)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	res := &listSkillsResult{ResultType: resultTypeComplete, Skills: make([]skillEntry, 0, len(page)), NextCursor: next, Cacheable: e.cacheable()}
	for _, ss := range page {
		res.Skills = append(res.Skills, v.entry(ss))
	}
	return res, nil
}

// getSkill serves skills/get: the entry of the skill whose SKILL.md is at
// params.uri, or -32602.
func (e *Extension) getSkill(_ context.Context, _ *mcp.ServerSession, p *getSkillParams) (*getSkillResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get needs params.uri, the URI of a skill's SKILL.md")
	}
	v := e.view()
	ss, ok := v.byURI[p.URI]
	if !ok {
		return nil, invalidParams("No skill is served at " + p.URI)
	}
	return &getSkillResult{ResultType: resultTypeComplete, Skill: v.entry(ss), Cacheable: e.cacheable()}, nil
}

// invalidParams is a JSON-RPC -32602 error.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
