package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

// Bounds of skills_search's limit (file 001).
const (
	searchLimitMin     = 1
	searchLimitMax     = 25
	searchLimitDefault = 10
	// excerptRunes is the width of a hit's excerpt window, in characters.
	excerptRunes = 160
)

type skillsSearchArgs struct {
	Query string          `json:"query"`
	Limit json.RawMessage `json:"limit"`
}

// searchHit is file 001's SearchHit: a summary, its score and an excerpt.
type searchHit struct {
	skillSummary
	// Score is the number of query tokens matched (all of them).
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
		Description: "Find skills by keywords: every whitespace-separated token of `query` must appear (case-insensitive) in the skill's " +
			"install name, name, description or body. Hits come sorted by installName with an excerpt of the body around the first match; " +
			"`total` counts all hits, `limit` (1–25, default 10) caps how many are returned.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "minLength": 1,
					"description": "Keywords to match (all whitespace-separated tokens must be present)"},
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

func (s *Server) handleSkillsSearch(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillsSearchArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"query", "limit"}, "query"); err != nil {
		return errorResult("skills_search: " + err.Error()), nil
	}
	tokens := strings.Fields(fold(a.Query))
	if len(tokens) == 0 {
		return errorResult("skills_search: query must hold at least one keyword"), nil
	}
	limit, err := searchLimit(a.Limit)
	if err != nil {
		return errorResult("skills_search: " + err.Error()), nil
	}
	snap := s.snapshot()
	skills := snap.Skills()
	sortByInstallName(skills)
	out := skillsSearchResult{Query: a.Query, Limit: limit, Results: []searchHit{}}
	for _, sk := range skills {
		body, err := snap.Body(sk)
		if err != nil {
			return errorResult("skills_search: " + err.Error()), nil
		}
		if !searchMatches(sk, body, tokens) {
			continue
		}
		out.Total++
		if len(out.Results) < limit {
			summary, _ := summarize(snap, sk, false) // without the body: cannot fail
			out.Results = append(out.Results, searchHit{skillSummary: summary, Score: len(tokens), Excerpt: excerpt(body, tokens[0])})
		}
	}
	var text strings.Builder
	fmt.Fprintf(&text, "%s matched %q", countNoun(out.Total), a.Query)
	if out.Total > len(out.Results) {
		fmt.Fprintf(&text, " (showing the first %d)", len(out.Results))
	}
	text.WriteString(".")
	for _, h := range out.Results {
		text.WriteString("\n- " + h.InstallName + " (" + h.SkillFile + "): " + h.Excerpt)
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

// searchMatches reports whether every folded token appears in the folded
// concatenation of sk's install name, name, description and body (file 001).
func searchMatches(sk *core.Skill, body string, tokens []string) bool {
	hay := fold(strings.Join([]string{installName(sk), sk.Name, sk.Description, body}, "\n"))
	for _, t := range tokens {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	return true
}

// excerpt returns about excerptRunes characters of body, whitespace collapsed,
// centred on the first occurrence of token (the start of the body when the token
// matched elsewhere), with "…" where the window cuts the text.
func excerpt(body, token string) string {
	flat := oneLine(body)
	text := []rune(flat)
	folded := fold(flat) // same runes count as flat, so rune offsets carry over
	start := 0
	if at := strings.Index(folded, token); at > 0 {
		start = utf8.RuneCountInString(folded[:at]) - (excerptRunes-utf8.RuneCountInString(token))/2
	}
	if start > len(text)-excerptRunes {
		start = len(text) - excerptRunes
	}
	if start < 0 {
		start = 0
	}
	end := min(start+excerptRunes, len(text))
	out := strings.TrimSpace(string(text[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
