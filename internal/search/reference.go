package search

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// The reference of the word index: skills_search's rule applied by reading
// every body. The index falls back to it when a body cannot be read while
// building, and the tests hold the index to it.

// Hit is one skills_search hit before it is summarised.
type Hit struct {
	// Skill is the skill found.
	Skill *core.Skill
	// Score is the number of query tokens found in the skill's text.
	Score int
	// Excerpt is the body around the first token found in it, for the hits shown.
	Excerpt string
	body    string // read by searchHits, the reference (wordIndex.hits does not keep it)
	first   string // the first token found in the body ("" for none)
}

// searchHits is the reference of wordIndex.hits, and what it falls back to
// when a body could not be read while building the index: it returns the skills_search hits for query in the order of the
// configured matcher (the order get_skill ranks them), followed by the skills
// the matcher did not rank that hold every folded token in their install
// name, name, description or body (file 001's literal rule), by install name.
// A hit's score is the number of tokens its text holds.
//
// It reads every body, and stops when ctx ends, with ctx's error.
func searchHits(ctx context.Context, snap *index.Snapshot, query string, tokens []string) ([]Hit, error) {
	var hits []Hit
	ranked := map[string]bool{}
	for _, m := range snap.Searcher().Search(query) {
		if sk, ok := snap.Get(m.Path); ok && !ranked[m.Path] {
			ranked[m.Path] = true
			hits = append(hits, Hit{Skill: sk})
		}
	}
	skills := snap.Skills()
	index.SortByInstallName(skills)
	for _, sk := range skills {
		if !ranked[sk.Path] {
			hits = append(hits, Hit{Skill: sk})
		}
	}
	out := hits[:0]
	for i, h := range hits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		body, err := snap.Body(h.Skill)
		if err != nil {
			return nil, err
		}
		h.body = body
		h.Score, h.first = tokensFound(h.Skill, body, tokens)
		if i < len(ranked) || h.Score == len(tokens) {
			out = append(out, h)
		}
	}
	return out, nil
}

// tokensFound counts the folded tokens present in the folded concatenation of
// sk's install name, name, description and body, and returns the first of
// them present in the body.
func tokensFound(sk *core.Skill, body string, tokens []string) (n int, first string) {
	hay := fold(strings.Join([]string{index.InstallName(sk), sk.Name, sk.Description}, "\n"))
	foldedBody := fold(body)
	for _, t := range tokens {
		inBody := strings.Contains(foldedBody, t)
		if inBody && first == "" {
			first = t
		}
		if inBody || strings.Contains(hay, t) {
			n++
		}
	}
	return n, first
}

// excerpt returns about ExcerptRunes characters of body, whitespace collapsed,
// centred on the first occurrence of token (the start of the body when token
// is "" or matched elsewhere), with "…" where the window cuts the text.
func excerpt(body, token string) string {
	flat := oneLine(body)
	text := []rune(flat)
	folded := fold(flat) // same runes count as flat, so rune offsets carry over
	start := 0
	if at := strings.Index(folded, token); token != "" && at > 0 {
		start = utf8.RuneCountInString(folded[:at]) - (ExcerptRunes-utf8.RuneCountInString(token))/2
	}
	if start > len(text)-ExcerptRunes {
		start = len(text) - ExcerptRunes
	}
	if start < 0 {
		start = 0
	}
	end := min(start+ExcerptRunes, len(text))
	out := strings.TrimSpace(string(text[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}

// fold lowercases rune by rune, so that rune offsets in the result are the rune
// offsets of the input (strings.ToLower may change the rune count).
func fold(s string) string { return strings.Map(unicode.ToLower, s) }

// oneLine collapses every run of whitespace to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
