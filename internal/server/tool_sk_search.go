package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/search"
)

// Bounds of skills_search's limit (file 001).
const (
	searchLimitMin     = 1
	searchLimitMax     = 25
	searchLimitDefault = 10
)

type skillsSearchArgs struct {
	Query string          `json:"query"`
	Limit json.RawMessage `json:"limit"`
}

// searchHit is file 001's SearchHit: a summary, its score and an excerpt.
type searchHit struct {
	skillSummary
	// Score is the number of query tokens the skill's text holds.
	Score int `json:"score"`
	// Excerpt is a window of the body around the first token's first occurrence.
	Excerpt string `json:"excerpt"`
}

// skillsSearchResult is file 001's skills.search output.
type skillsSearchResult struct {
	Query   string      `json:"query"`
	Limit   int         `json:"limit"`
	Total   int         `json:"total"`
	Results []searchHit `json:"results"`
}

func (s *Server) addSkillsSearch() {
	hit := skillSummarySchema()
	props := map[string]any{}
	for k, v := range hit["properties"].(map[string]any) {
		props[k] = v
	}
	props["score"] = map[string]any{"type": "integer", "description": "Number of query tokens matched"}
	props["excerpt"] = strProp("About 160 characters of the body around the first match")
	hit["properties"] = props
	hit["required"] = append(append([]string(nil), hit["required"].([]string)...), "score", "excerpt")

	s.mcp.AddTool(&mcp.Tool{
		Name:  "skills_search",
		Title: "Search skills",
		Description: "Find skills for a task or by keywords. Hits come best first, ranked as get_skill ranks them, then any other skill " +
			"holding every whitespace-separated token of `query` (case-insensitive) in its install name, name, description or body, by installName; " +
			"each with an excerpt of the body around the first token it holds. `total` counts all hits, `limit` (1–25, default 10) caps how many are returned. " +
			"`query` holds at most " + strconv.Itoa(search.MaxQueryWords) + " words.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "minLength": 1,
					"description": "A task description or keywords"},
				"limit": map[string]any{"type": "integer", "description": "Maximum number of hits",
					"minimum": searchLimitMin, "maximum": searchLimitMax, "default": searchLimitDefault},
			},
			"required":             []string{"query"},
			"additionalProperties": false,
		},
		OutputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query":   strProp("The query as given"),
				"limit":   map[string]any{"type": "integer"},
				"total":   map[string]any{"type": "integer", "description": "Number of hits before the limit"},
				"results": map[string]any{"type": "array", "items": hit},
			},
			"required": []string{"query", "limit", "total", "results"},
		},
		Annotations: readOnly("Search skills"),
	}, s.handleSkillsSearch)
}

func (s *Server) handleSkillsSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillsSearchArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"query", "limit"}, "query"); err != nil {
		return errorResult("skills_search: " + err.Error()), nil
	}
	tokens := search.Tokens(a.Query)
	if len(tokens) == 0 {
		return errorResult("skills_search: query must hold at least one keyword"), nil
	}
	if len(tokens) > search.MaxQueryWords {
		return errorResult(fmt.Sprintf("skills_search: query has %d words, over the limit of %d words: search with the task's keywords",
			len(tokens), search.MaxQueryWords)), nil
	}
	limit, err := searchLimit(a.Limit)
	if err != nil {
		return errorResult("skills_search: " + err.Error()), nil
	}
	snap := s.snapshot()
	hits, total, err := s.search.Search(ctx, snap, a.Query, tokens, limit)
	if ctx.Err() != nil {
		return nil, ctx.Err() // cancelled: nobody reads the answer
	}
	if err != nil {
		return errorResult("skills_search: " + err.Error()), nil
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
	return structuredResult(text.String(), out), nil
}

// searchLimit reads the optional limit: an integer from 1 to 25, 10 when absent.
func searchLimit(raw json.RawMessage) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return searchLimitDefault, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || f < searchLimitMin || f > searchLimitMax {
		return 0, fmt.Errorf("limit must be an integer from %d to %d, got %s", searchLimitMin, searchLimitMax, raw)
	}
	return int(f), nil
}
