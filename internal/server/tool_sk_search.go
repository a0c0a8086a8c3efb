package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/search"
)

// Bounds of skills_search's limit (file 001).
const (
	searchLimitMin     = 1
	searchLimitMax     = 25
	searchLimitDefault = 10
)

// skillsSearchArgs are skills_search's arguments; the go-sdk sets Limit to
// its default when it is left out.
type skillsSearchArgs struct {
	Query string `json:"query" jsonschema:"A task description or keywords"`
	Limit int    `json:"limit,omitempty" jsonschema:"Maximum number of hits"`
}

// searchHit is file 001's SearchHit: a summary, its score and an excerpt.
type searchHit struct {
	skillSummary
	// Score is the number of query tokens the skill's text holds.
	Score int `json:"score" jsonschema:"Number of query tokens matched"`
	// Excerpt is a window of the body around the first token's first occurrence.
	Excerpt string `json:"excerpt" jsonschema:"About 160 characters of the body around the first match"`
}

// skillsSearchResult is file 001's skills.search output.
type skillsSearchResult struct {
	Query   string      `json:"query" jsonschema:"The query as given"`
	Limit   int         `json:"limit"`
	Total   int         `json:"total" jsonschema:"Number of hits before the limit"`
	Results []searchHit `json:"results"`
}

func (s *Server) addSkillsSearch() {
	addTool(s, &mcp.Tool{
		Name:  "skills_search",
		Title: "Search skills",
		Description: "Find skills for a task or by keywords. Hits come best first, ranked as get_skill ranks them, then any other skill " +
			"holding every whitespace-separated token of `query` (case-insensitive) in its install name, name, description or body, by installName; " +
			"each with an excerpt of the body around the first token it holds. `total` counts all hits, `limit` (1–25, default 10) caps how many are returned. " +
			"`query` holds at most " + strconv.Itoa(search.MaxQueryWords) + " words.",
		InputSchema: inputSchema[skillsSearchArgs](func(props map[string]*jsonschema.Schema) {
			nonEmpty("query")(props)
			limit := props["limit"]
			limit.Minimum, limit.Maximum = jsonschema.Ptr[float64](searchLimitMin), jsonschema.Ptr[float64](searchLimitMax)
			limit.Default = json.RawMessage(strconv.Itoa(searchLimitDefault))
		}),
		OutputSchema: outputSchema[skillsSearchResult](),
		Annotations:  readOnly("Search skills"),
	}, s.handleSkillsSearch)
}

// handleSkillsSearch answers skills_search, its structured content a value
// as `skill`'s is (handleSkill): the go-sdk's check of a typed output made a
// search cost 2.6 times as much.
func (s *Server) handleSkillsSearch(ctx context.Context, _ *mcp.CallToolRequest, a skillsSearchArgs) (*mcp.CallToolResult, any, error) {
	tokens := search.Tokens(a.Query)
	if len(tokens) == 0 {
		return nil, nil, fail("skills_search: query must hold at least one keyword")
	}
	if len(tokens) > search.MaxQueryWords {
		return nil, nil, fail(fmt.Sprintf("skills_search: query has %d words, over the limit of %d words: search with the task's keywords",
			len(tokens), search.MaxQueryWords))
	}
	limit := a.Limit
	snap := s.snapshot()
	hits, total, err := s.search.Search(ctx, snap, a.Query, tokens, limit)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err() // cancelled: nobody reads the answer
	}
	if err != nil {
		return nil, nil, fail("skills_search: " + err.Error())
	}
	out := skillsSearchResult{Query: a.Query, Limit: limit, Total: total, Results: make([]searchHit, 0, len(hits))}
	for _, h := range hits {
		summary, _ := summarize(snap, h.Skill, false) // without the body: cannot fail
		out.Results = append(out.Results, searchHit{skillSummary: summary, Score: h.Score, Excerpt: h.Excerpt})
	}
	var text strings.Builder
	size := 64 + 2*len(a.Query)
	for _, h := range out.Results {
		size += len(h.InstallName) + len(h.SkillFile) + len(h.Excerpt) + 8
	}
	text.Grow(size)
	fmt.Fprintf(&text, "%s matched %q", countNoun(out.Total), a.Query)
	if out.Total > len(out.Results) {
		fmt.Fprintf(&text, " (showing the first %d)", len(out.Results))
	}
	text.WriteString(".")
	for _, h := range out.Results {
		text.WriteString("\n- " + textLine(h.InstallName) + " (" + textLine(h.SkillFile) + "): " + textLine(h.Excerpt))
	}
	return structuredResult(text.String(), out), nil, nil
}
