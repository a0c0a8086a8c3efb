package keyword

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// plainSearch is the plain algorithm of spec 000 §5: every entry scored with
// referenceScore against the tokens of context, those with a matched keyword kept,
// sorted by score descending then path ascending (ties in entry order). The
// Searcher must give exactly this answer.
func plainSearch(entries []core.MatchEntry, context string) []core.Match {
	tokens := Tokenize(context)
	if len(tokens) == 0 {
		return nil
	}
	var out []core.Match
	for _, e := range entries {
		keywords := e.Keywords
		if len(keywords) == 0 {
			keywords = DeriveKeywords(e.Name, e.Description)
		}
		if score, matched := referenceScore(tokens, keywords, e.Priority); len(matched) > 0 {
			out = append(out, core.Match{Path: e.Path, Score: score, MatchedKeywords: matched})
		}
	}
	slices.SortStableFunc(out, func(a, b core.Match) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
	})
	return out
}

// identical reports whether two answers are the same, scores bit for bit.
func identical(a, b []core.Match) bool {
	return slices.EqualFunc(a, b, func(x, y core.Match) bool {
		return x.Path == y.Path && math.Float64bits(x.Score) == math.Float64bits(y.Score) &&
			slices.Equal(x.MatchedKeywords, y.MatchedKeywords)
	})
}

// oddEntries are entries no real content repository holds, for the corners of
// the match rule: keywords that lowercase to another length, hold spaces, NUL
// or invalid UTF-8, are empty or only hyphens, repeat with another case; NaN,
// negative and signed-zero priorities; a path given twice.
var oddEntries = []core.MatchEntry{
	{Path: "odd/turkish", Keywords: []string{"İstanbul", "KELVIN-K", "ǅemal"}},
	{Path: "odd/spaces", Keywords: []string{"react native", " api ", "tab\tkey"}},
	{Path: "odd/nul", Keywords: []string{"api\x00gateway", "\x00"}},
	{Path: "odd/invalid", Keywords: []string{"caf\xe9", "\xff\xfeapi", "\xc3"}},
	{Path: "odd/empty", Keywords: []string{"", "-", "--", "a-"}},
	{Path: "odd/dupes", Keywords: []string{"React", "react", "REACT", "api", "api"}, Priority: 2},
	{Path: "odd/nan", Keywords: []string{"test", "deploy"}, Priority: math.NaN()},
	{Path: "odd/neg", Keywords: []string{"test", "deploy"}, Priority: -3},
	{Path: "odd/zero", Keywords: []string{"test", "deploy"}, Priority: math.Copysign(0, -1)},
	{Path: "odd/twice", Keywords: []string{"cache"}, Priority: 1},
	{Path: "odd/twice", Keywords: []string{"cache", "redis"}, Priority: 1},
	{Path: "odd/short", Keywords: []string{"go", "js", "é", "日本", "k8s"}},
	{Path: "odd/derived", Name: "pdf-tools", Description: "Extract text and tables from PDF files"},
	{Path: "odd/nothing"},
	{Path: "", Keywords: []string{"api"}},
}

// entriesOf is what internal/index hands the matcher for the planned skills of a
// corpus, followed by oddEntries.
func entriesOf(c *corpus.Corpus) []core.MatchEntry {
	out := make([]core.MatchEntry, 0, len(c.Skills)+len(oddEntries))
	for _, s := range c.Skills {
		out = append(out, core.MatchEntry{Path: s.Path, Keywords: s.Keywords, Priority: float64(s.Priority), Name: s.Name, Description: s.Description})
	}
	return append(out, oddEntries...)
}

// TestSearchEqualsPlainAlgorithm compares the Searcher with the plain
// algorithm on the generated corpora of issue 9 and on random contexts: the
// keyword requests of many skills, the contexts the benchmarks time, and
// contexts drawn at random (words whole, cut, extended, joined, in other
// scripts, stop words, punctuation). On the benchmarks' contexts, the odd
// ones and a fifth of the others it also compares SearchTop with Search
// filtered, and core.SearchRank with core.Rank of Search, under the limits and
// configs of topMismatch.
func TestSearchEqualsPlainAlgorithm(t *testing.T) {
	tests := []struct {
		skills, random, requests int
	}{
		{skills: 100, random: 2000, requests: 100},
		{skills: 1000, random: 600, requests: 300},
		{skills: 10000, random: 60, requests: 40},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("skills=%d", tt.skills), func(t *testing.T) {
			if testing.Short() && tt.skills > 1000 {
				t.Skip("the 10,000-skill corpus is slow under -short")
			}
			c, err := corpus.Plan(corpus.Options{Skills: tt.skills})
			if err != nil {
				t.Fatal(err)
			}
			entries := entriesOf(c)
			s := New().Build(entries)
			top := s.(core.TopSearcher)
			random, requests := tt.random, tt.requests
			if testing.Short() { // a quarter of the contexts: 14 s to about 4 under -race
				random, requests = random/4, requests/4
			}
			contexts := corpus.RandomContexts(uint64(tt.skills), random)
			for i := range requests {
				sk := &c.Skills[(i*7919)%len(c.Skills)]
				contexts = append(contexts, corpus.ContextFor(sk), sk.Description, sk.Name)
			}
			always := len(contexts) // the benchmarks' contexts and the odd ones, compared under every setting
			if ctxs, err := c.PickContexts(func(ctx string) core.Ranking {
				return core.Rank(s.Search(ctx), config.Default().Matching.Rank())
			}); err == nil {
				contexts = append(contexts, ctxs.Single, ctxs.Ambiguous, ctxs.NoMatch)
			} else {
				t.Errorf("PickContexts: %v", err)
			}
			contexts = append(contexts, oddContexts...)
			matchedSome := 0
			for i, ctx := range contexts {
				got, want := s.Search(ctx), plainSearch(entries, ctx)
				if !identical(got, want) {
					t.Fatalf("Search(%q) =\n%s\nwant (plain algorithm)\n%s", ctx, formatMatches(got), formatMatches(want))
				}
				if i%5 == 0 || i >= always { // a fifth of the others keeps the race detector's run short
					if msg := topMismatch(top, ctx, got); msg != "" {
						t.Fatal(msg)
					}
				}
				if len(want) > 0 {
					matchedSome++
				}
			}
			if matchedSome < len(contexts)/2 {
				t.Errorf("only %d of %d contexts matched anything, want most: the comparison would prove little", matchedSome, len(contexts))
			}
		})
	}
}

// oddContexts reach the odd entries.
var oddContexts = []string{
	"istanbul İstanbul i̇stanbul kelvin-k", "react native api", "api\x00gateway", "café caf\xe9 \xff\xfeapi",
	"- -- a- a", "react REACT React", "test deploy", "cache redis", "go js é 日本 k8s", "pdf tools extract",
	"gateway nul", "ǆemal ǅemal", "tab key", "api",
}

// TestSearchEqualsPlainAlgorithmOnOddEntries runs every odd context and every
// keyword of the odd entries, whole and cut, against the odd entries alone,
// SearchTop and core.SearchRank included.
func TestSearchEqualsPlainAlgorithmOnOddEntries(t *testing.T) {
	s := New().Build(oddEntries)
	contexts := slices.Clone(oddContexts)
	for _, e := range oddEntries {
		for _, kw := range e.Keywords {
			contexts = append(contexts, kw, strings.ToUpper(kw), kw+"s", "x"+kw+"x")
			if len(kw) > 2 {
				contexts = append(contexts, kw[1:], kw[:len(kw)-1])
			}
		}
	}
	for _, ctx := range contexts {
		if got, want := s.Search(ctx), plainSearch(oddEntries, ctx); !identical(got, want) {
			t.Errorf("Search(%q) =\n%s\nwant (plain algorithm)\n%s", ctx, formatMatches(got), formatMatches(want))
		}
		if msg := topMismatch(s.(core.TopSearcher), ctx, s.Search(ctx)); msg != "" {
			t.Error(msg)
		}
	}
}

func TestSearchOnEmptyIndex(t *testing.T) {
	tests := []struct {
		name    string
		entries []core.MatchEntry
	}{
		{"no entries", nil},
		{"entries without keywords", []core.MatchEntry{{Path: "a"}, {Path: "b", Keywords: []string{""}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := New().Build(tt.entries).Search("react api deploy"); got != nil {
				t.Errorf("got %+v, want nil", got)
			}
		})
	}
}

// FuzzSearch compares the Searcher with the plain algorithm on small indexes:
// entries separated by ";", keywords by ",", and a priority for all.
func FuzzSearch(f *testing.F) {
	f.Add("react component", "react,component;vue,component;auth,authentication", 1.0)
	f.Add("go golang js json", "go,golang;js;json,schema", 0.0)
	f.Add("İstanbul api-gateway", "i̇stanbul;api;gateway,api-gateway", -1.0)
	f.Fuzz(func(t *testing.T, context, index string, priority float64) {
		var entries []core.MatchEntry
		for i, list := range strings.Split(index, ";") {
			entries = append(entries, core.MatchEntry{
				Path: fmt.Sprintf("e%d", i%5), Keywords: strings.Split(list, ","), Priority: priority * float64(i%3),
				Name: list, Description: context,
			})
		}
		if got, want := New().Build(entries).Search(context), plainSearch(entries, context); !identical(got, want) {
			t.Errorf("Search(%q) over %q =\n%s\nwant (plain algorithm)\n%s", context, index, formatMatches(got), formatMatches(want))
		}
	})
}
