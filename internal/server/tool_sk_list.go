package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

type skillsListArgs struct {
	Query       string `json:"query"`
	IncludeBody bool   `json:"includeBody"`
	Cursor      string `json:"cursor"`
}

// skillsListKind names skills_list's cursors.
const skillsListKind = "skills_list"

func (s *Server) addSkillsList() {
	s.mcp.AddTool(&mcp.Tool{
		Name:  "skills_list",
		Title: "List skills",
		Description: "List every skill with its metadata (installName, name, description, skillPath, skillFile), sorted by installName. " +
			"Give `query` to keep only skills whose install name, name or description contain it (case-insensitive); " +
			"set `includeBody` to get each skill's Markdown body without its frontmatter. " +
			"Answers come in pages of at most " + strconv.Itoa(MaxPageBytes>>10) + " KiB: when `nextCursor` is in the answer, " +
			"call again with the same `query` and `cursor` set to it for the next page.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query":       strProp("Optional substring filter applied to install name, meta.name, or description"),
				"includeBody": map[string]any{"type": "boolean", "description": "Include the SKILL.md body (minus YAML front-matter) in the structured payload"},
				"cursor":      strProp("Optional: the nextCursor of the previous page, to get the next one"),
			},
			"additionalProperties": false,
		},
		OutputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"skills":     map[string]any{"type": "array", "items": skillSummarySchema()},
				"nextCursor": strProp("When more skills match: give it as cursor to get the next page"),
			},
			"required": []string{"skills"},
		},
		Annotations: readOnly("List skills"),
	}, s.handleSkillsList)
}

// handleSkillsList answers skills_list a page at a time: the skills after
// the cursor whose JSON (with their bodies when asked) fits in MaxPageBytes,
// at least one. The text holds one line per skill of the page.
func (s *Server) handleSkillsList(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillsListArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"query", "includeBody", "cursor"}); err != nil {
		return errorResult("skills_list: " + err.Error()), nil
	}
	query := fold(strings.TrimSpace(a.Query))
	snap := s.snapshot()
	skills := snap.Skills()
	sortByInstallName(skills)
	matched := skills[:0]
	for _, sk := range skills {
		if query == "" || listMatches(sk, query) {
			matched = append(matched, sk)
		}
	}
	start := 0
	if a.Cursor != "" {
		p, err := cursorPosition(skillsListKind, query, a.Cursor)
		if err != nil {
			return errorResult("skills_list: " + err.Error()), nil
		}
		if p.index >= len(matched) || !p.at(p.index, listKey(matched[p.index])) {
			return errorResult("skills_list: " + errListingChanged.Error()), nil
		}
		start = p.index
	}
	// The page is written into out as it is decided: each summary is encoded
	// into item (reused), and copied into out when it fits.
	var out, item bytes.Buffer
	enc := json.NewEncoder(&item) // HTML escaped: the longest of the encoders' forms
	var lines strings.Builder
	perSkill := 512 // a summary is a few hundred bytes; with its body, a few kilobytes
	if a.IncludeBody {
		perSkill = 8 << 10
	}
	out.Grow(min(s.pageBytes, pageEnvelope+(len(matched)-start)*perSkill)) // grown once, not doubled up to the page
	out.WriteString(`{"skills":[`)
	size, end := len(`{"skills":[]}`)+pageEnvelope, start
	for ; end < len(matched); end++ {
		if (end-start)%ctxCheckEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		summary, err := summarize(snap, matched[end], a.IncludeBody)
		if err != nil {
			return errorResult("skills_list: " + err.Error()), nil
		}
		item.Reset()
		if err := enc.Encode(summary); err != nil {
			return errorResult("skills_list: " + err.Error()), nil
		}
		encoded := bytes.TrimSuffix(item.Bytes(), []byte("\n"))
		if end > start && size+len(encoded)+len(",") > s.pageBytes {
			break
		}
		size += len(encoded) + len(",")
		if end > start {
			out.WriteByte(',')
		}
		out.Write(encoded)
		summaryLines(&lines, []skillSummary{summary})
	}
	out.WriteByte(']')
	next := ""
	if end < len(matched) {
		next = positionCursor(skillsListKind, query, position{index: end, item: shortHash(listKey(matched[end]))})
		out.WriteString(`,"nextCursor":"` + next + `"`)
	}
	out.WriteByte('}')
	var text strings.Builder
	text.Grow(lines.Len() + 256)
	text.WriteString(countNoun(len(matched)) + " matched.")
	if start > 0 || next != "" {
		text.WriteString(" This page lists skills " + strconv.Itoa(min(start+1, end)) + " to " + strconv.Itoa(end) + ".")
	}
	if next != "" {
		text.WriteString(` More: call skills_list again with the same query and cursor "` + next + `".`)
	}
	text.WriteString(lines.String())
	return structuredResult(text.String(), json.RawMessage(out.Bytes())), nil
}

// listKey is what orders skills_list (sortByInstallName): a cursor holds the
// hash of the next skill's, to tell a listing that changed.
func listKey(sk *core.Skill) string {
	return installName(sk) + "\x00" + sk.FilePath + "\x00" + sk.Root
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
