package server

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/cursor"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// listSkillsArgs are list_skills' arguments.
type listSkillsArgs struct {
	Path   string `json:"path,omitempty" jsonschema:"Optional sub-tree filter, e.g. \"ui\" or \"api/_index\""`
	Cursor string `json:"cursor,omitempty" jsonschema:"Optional: the nextCursor of the previous page, to get the next one"`
}

// listSkillsKind names list_skills' cursors.
const listSkillsKind = "list_skills"

// pageEnvelope bounds what a paged answer adds around its items: the
// object's members and a cursor (position cursors are under 48 characters).
const pageEnvelope = 128

// addListSkills registers list_skills. Its answer is a recursive tree
// (SkillNode, spec 000 §8.2), which jsonschema-go cannot infer (it refuses
// cyclic types), and is written straight from the snapshot, up to megabytes
// of it, rather than built as Go values: its output schema is written by hand
// and the handler hands the go-sdk the JSON (docs/UPSTREAM.md).
func (s *Server) addListSkills() {
	addTool(s, &mcp.Tool{
		Name: "list_skills",
		Description: "Browse the skill tree: every skill with its description, keywords and how many assets and scripts it has. " +
			"Give `path` (for example \"ui\" or \"api/_index\") to see one sub-tree. " +
			"A tree larger than one page (" + strconv.Itoa(MaxPageBytes>>10) + " KiB) comes in pages: the answer is then {\"skills\": [...], \"nextCursor\": \"...\"}; " +
			"call again with the same `path` and `cursor` set to nextCursor for the next page. A node whose parent is on an earlier page is at the top of its page.",
		OutputSchema: listSkillsOutputSchema(),
		Annotations:  readOnly("List skills"),
	}, s.handleListSkills)
}

// handleListSkills answers list_skills. A tree that fits in one page (with
// no cursor) is spec 000's answer, unchanged: the tree as the text, and
// {"skills": tree} as the structured content. A larger one comes in pages of
// at most MaxPageBytes, each {"skills": [...], "nextCursor": "..."} in both
// (no nextCursor on the last).
func (s *Server) handleListSkills(_ context.Context, _ *mcp.CallToolRequest, a listSkillsArgs) (*mcp.CallToolResult, any, error) {
	filter := strings.Trim(strings.TrimSpace(a.Path), "/")
	snap := s.snapshot()
	from, err := treeFrom(snap, filter, a.Cursor)
	if err != nil {
		return nil, nil, fail("list_skills: " + err.Error())
	}
	var text strings.Builder
	next, done, err := snap.WriteTreePageJSON(&text, filter, from, s.pageBytes-pageEnvelope)
	if errors.Is(err, index.ErrTreeChanged) {
		return nil, nil, fail("list_skills: " + cursor.ErrListingChanged.Error())
	}
	if err != nil {
		return nil, nil, fail("list_skills: " + err.Error())
	}
	tree := text.String()
	if done && a.Cursor == "" {
		// structuredContent is an object: the tree under "skills", written from
		// the same string as the text rather than copied into an object first
		// (2.5 MB at 10,000 skills).
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tree}}, StructuredContent: memberJSON{key: "skills", value: tree}}, nil, nil
	}
	text.Reset()
	text.Grow(len(tree) + pageEnvelope)
	text.WriteString(`{"skills":`)
	text.WriteString(tree)
	if !done {
		text.WriteString(`,"nextCursor":"`)
		text.WriteString(cursor.At(next.Index, next.Path).Cursor(listSkillsKind, filter))
		text.WriteByte('"')
	}
	text.WriteByte('}')
	page := text.String()
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: page}}, StructuredContent: json.RawMessage(page)}, nil, nil
}

// treeFrom is where the page a cursor asks for starts in the tree of filter
// (its start for no cursor).
func treeFrom(snap *index.Snapshot, filter, c string) (index.TreePos, error) {
	if c == "" {
		return index.TreePos{}, nil
	}
	p, err := cursor.PositionOf(listSkillsKind, filter, c)
	if err != nil {
		return index.TreePos{}, err
	}
	path, ok := snap.TreePathAt(filter, p.Index)
	if !ok || !p.Is(p.Index, path) {
		return index.TreePos{}, cursor.ErrListingChanged
	}
	return index.TreePos{Index: p.Index, Path: path}, nil
}
