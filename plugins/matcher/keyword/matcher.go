package keyword

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
)

// Matcher is the built-in keyword core.Matcher (spec 000 §5). Its zero value
// is ready to use.
type Matcher struct{}

var _ core.Matcher = (*Matcher)(nil)

// New returns a keyword Matcher.
func New() *Matcher { return &Matcher{} }

// Build prepares a Searcher over a copy of entries with their keywords
// lowercased once. entries is neither modified nor retained.
func (*Matcher) Build(entries []core.MatchEntry) core.Searcher {
	s := &Searcher{entries: make([]preparedEntry, len(entries))}
	for i, e := range entries {
		keywords := e.Keywords
		if len(keywords) == 0 {
			keywords = DeriveKeywords(e.Name, e.Description)
		}
		kws := make([]preparedKeyword, len(keywords))
		for j, kw := range keywords {
			lower := strings.ToLower(kw)
			kws[j] = preparedKeyword{word: lower, short: utf8.RuneCountInString(lower) < shortLen}
		}
		s.entries[i] = preparedEntry{path: e.Path, priority: e.Priority, keywords: kws}
	}
	return s
}

// Searcher answers keyword queries over one index snapshot. It is immutable
// after Build and safe for concurrent use.
type Searcher struct {
	entries []preparedEntry
}

var _ core.Searcher = (*Searcher)(nil)

// preparedEntry is one skill with its keywords ready for matching.
type preparedEntry struct {
	path     string
	priority float64
	keywords []preparedKeyword
}

// preparedKeyword is a lowercased keyword and whether it is short (< 3 runes).
type preparedKeyword struct {
	word  string
	short bool
}

// queryToken is a context token and whether it is short (< 3 runes).
type queryToken struct {
	word  string
	short bool
}

// Search tokenizes context and returns every entry with at least one matched
// keyword, scored as Score does, sorted by score descending then path
// ascending. A context with no tokens (empty, or only stop words) matches nothing.
func (s *Searcher) Search(context string) []core.Match {
	words := Tokenize(context)
	if len(words) == 0 {
		return nil
	}
	tokens := make([]queryToken, len(words))
	for i, w := range words {
		tokens[i] = queryToken{word: w, short: utf8.RuneCountInString(w) < shortLen}
	}
	var out []core.Match
	for _, e := range s.entries {
		if m, ok := e.match(tokens); ok {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b core.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
	})
	return out
}

// match scores one entry against the tokens exactly as Score does.
func (e *preparedEntry) match(tokens []queryToken) (core.Match, bool) {
	var matched []string
	for _, kw := range e.keywords {
		for _, tok := range tokens {
			if preparedMatches(tok, kw) {
				matched = append(matched, kw.word)
				break
			}
		}
	}
	if len(matched) == 0 {
		return core.Match{}, false
	}
	return core.Match{
		Path:            e.path,
		Score:           finalScore(len(matched), len(e.keywords), e.priority),
		MatchedKeywords: matched,
	}, true
}

// preparedMatches is tokenMatches with the rune counts already known.
func preparedMatches(tok queryToken, kw preparedKeyword) bool {
	if tok.short || kw.short {
		return tok.word == kw.word
	}
	return tok.word == kw.word || strings.Contains(tok.word, kw.word) || strings.Contains(kw.word, tok.word)
}

// DeriveKeywords gives a skill that declares no keywords (an Agent Skills
// folder) the tokens of its name, hyphens split, then of its description.
func DeriveKeywords(name, description string) []string {
	return Tokenize(strings.ReplaceAll(name, "-", " ") + " " + description)
}
