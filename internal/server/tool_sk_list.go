package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
)

// skillsListArgs are skills_list's arguments, all optional.
type skillsListArgs struct {
	Query       string `json:"query,omitempty" jsonschema:"Optional substring filter applied to install name, meta.name, or description"`
	IncludeBody bool   `json:"includeBody,omitempty" jsonschema:"Include the SKILL.md body (minus YAML front-matter) in the structured payload"`
	Cursor      string `json:"cursor,omitempty" jsonschema:"Optional: the nextCursor of the previous page, to get the next one"`
}

// skillsListPage is skills_list's structured output, its output schema. The
// handler encodes it itself, a summary at a time, to fill a page up to
// MaxPageBytes; the go-sdk takes that JSON as it is.
type skillsListPage struct {
	Skills     []skillSummary `json:"skills"`
	NextCursor string         `json:"nextCursor,omitempty" jsonschema:"When more skills match: give it as cursor to get the next page"`
}

// skillsListKind names skills_list's cursors.
const skillsListKind = "skills_list"

func (s *Server) addSkillsList() {
	addTool(s, &mcp.Tool{
		Name:  "skills_list",
		Title: "List skills",
		Description: "List every skill with its metadata (installName, name, description, skillPath, skillFile), sorted by installName. " +
			"Give `query` to keep only skills whose install name, name or description contain it (case-insensitive); " +
			"set `includeBody` to get each skill's Markdown body without its frontmatter. " +
			"Answers come in pages of at most " + strconv.Itoa(MaxPageBytes>>10) + " KiB: when `nextCursor` is in the answer, " +
			"call again with the same `query` and `cursor` set to it for the next page.",
		OutputSchema: outputSchema[skillsListPage](),
		Annotations:  readOnly("List skills"),
	}, s.handleSkillsList)
}

// handleSkillsList answers skills_list a page at a time: the skills after
// the cursor whose JSON (with their bodies when asked) fits in MaxPageBytes,
// at least one. The text holds one line per skill of the page.
func (s *Server) handleSkillsList(ctx context.Context, _ *mcp.CallToolRequest, a skillsListArgs) (*mcp.CallToolResult, any, error) {
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
		p, err := cursor.PositionOf(skillsListKind, query, a.Cursor)
		if err != nil {
			return nil, nil, fail("skills_list: " + err.Error())
		}
		if p.Index >= len(matched) || !p.Is(p.Index, listKey(matched[p.Index])) {
			return nil, nil, fail("skills_list: " + cursor.ErrListingChanged.Error())
		}
		start = p.Index
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
			return nil, nil, ctx.Err()
		}
		summary, err := summarize(snap, matched[end], a.IncludeBody)
		if err != nil {
			return nil, nil, fail("skills_list: " + err.Error())
		}
		item.Reset()
		if err := enc.Encode(summary); err != nil {
			return nil, nil, fail("skills_list: " + err.Error())
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
		next = cursor.At(end, listKey(matched[end])).Cursor(skillsListKind, query)
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
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}}, StructuredContent: json.RawMessage(out.Bytes())}, nil, nil
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
