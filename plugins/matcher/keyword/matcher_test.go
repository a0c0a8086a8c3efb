package keyword

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// catalog is a small skill tree shared by the Search tests.
var catalog = []core.MatchEntry{
	{Path: "ui/react", Keywords: []string{"react", "component", "jsx", "hooks"}, Priority: 10},
	{Path: "ui/react/forms", Keywords: []string{"react", "form", "validation"}, Priority: 5},
	{Path: "ui/vue", Keywords: []string{"vue", "component"}, Priority: 10},
	{Path: "security/auth", Keywords: []string{"authentication", "auth", "login", "oauth"}, Priority: 0},
	{Path: "lang/go", Keywords: []string{"go", "golang", "goroutine"}, Priority: 0},
	{Path: "lang/js", Keywords: []string{"js", "javascript", "node"}, Priority: 0},
	{Path: "data/json", Keywords: []string{"json", "schema"}, Priority: 0},
	{Path: "fr/données", Keywords: []string{"données", "Base"}, Priority: 1},
	{Path: "empty", Keywords: nil, Priority: 100},
}

func TestSearch(t *testing.T) {
	s := New().Build(catalog)
	tests := []struct {
		name    string
		context string
		want    []core.Match // scores as printed by JavaScript
	}{
		{
			name:    "spec example ranks react first",
			context: "Create a React component for the authentication",
			want: []core.Match{
				{Path: "ui/react", Score: 0.51, MatchedKeywords: []string{"react", "component"}},
				{Path: "ui/vue", Score: 0.51, MatchedKeywords: []string{"component"}},
				{Path: "security/auth", Score: 0.5, MatchedKeywords: []string{"authentication", "auth"}},
				{Path: "ui/react/forms", Score: 0.3383333333333333, MatchedKeywords: []string{"react"}},
			},
		},
		{
			name:    "short token js matches js only, not json",
			context: "js",
			want:    []core.Match{{Path: "lang/js", Score: 0.3333333333333333, MatchedKeywords: []string{"js"}}},
		},
		{
			name:    "node.js splits into node and js",
			context: "node.js",
			want:    []core.Match{{Path: "lang/js", Score: 0.6666666666666666, MatchedKeywords: []string{"js", "node"}}},
		},
		{
			name:    "golang matches golang but not the short keyword go",
			context: "golang",
			want:    []core.Match{{Path: "lang/go", Score: 0.3333333333333333, MatchedKeywords: []string{"golang"}}},
		},
		{
			name:    "French context with lowercased keyword",
			context: "Créer des données dans la BASE",
			want:    []core.Match{{Path: "fr/données", Score: 1.001, MatchedKeywords: []string{"données", "base"}}},
		},
		{name: "no keyword matches", context: "kubernetes helm", want: nil},
		{name: "empty context", context: "", want: nil},
		{name: "only stop words", context: "the of and le la les", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Search(tt.context)
			if !matchesEqual(got, tt.want) {
				t.Errorf("Search(%q) =\n%s\nwant\n%s", tt.context, formatMatches(got), formatMatches(tt.want))
			}
		})
	}
}

func TestSearchOrdering(t *testing.T) {
	tests := []struct {
		name    string
		entries []core.MatchEntry
		context string
		want    []string
	}{
		{
			name: "higher base score first",
			entries: []core.MatchEntry{
				{Path: "a", Keywords: []string{"deploy", "x1x", "x2x"}},
				{Path: "b", Keywords: []string{"deploy"}},
				{Path: "c", Keywords: []string{"deploy", "x1x"}},
			},
			context: "deploy",
			want:    []string{"b", "c", "a"},
		},
		{
			name: "priority breaks a tie in base score",
			entries: []core.MatchEntry{
				{Path: "a-low", Keywords: []string{"deploy", "docker"}, Priority: 0},
				{Path: "z-high", Keywords: []string{"deploy", "kubernetes"}, Priority: 1},
			},
			context: "deploy",
			want:    []string{"z-high", "a-low"},
		},
		{
			name: "priority never beats a higher base score",
			entries: []core.MatchEntry{
				{Path: "boosted", Keywords: []string{"deploy", "docker"}, Priority: 100},
				{Path: "exact", Keywords: []string{"deploy"}, Priority: 0},
			},
			context: "deploy",
			want:    []string{"exact", "boosted"},
		},
		{
			name: "equal scores sorted by path ascending",
			entries: []core.MatchEntry{
				{Path: "ops/deploy", Keywords: []string{"deploy"}},
				{Path: "ci/deploy", Keywords: []string{"deploy"}},
				{Path: "infra/deploy", Keywords: []string{"deploy"}},
				{Path: "ci/build", Keywords: []string{"deploy"}},
			},
			context: "deploy",
			want:    []string{"ci/build", "ci/deploy", "infra/deploy", "ops/deploy"},
		},
		{
			name: "priority alone does not make a match",
			entries: []core.MatchEntry{
				{Path: "loud", Keywords: []string{"unrelated"}, Priority: 1000},
				{Path: "quiet", Keywords: []string{"deploy"}},
			},
			context: "deploy",
			want:    []string{"quiet"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range New().Build(tt.entries).Search(tt.context) {
				got = append(got, m.Path)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) paths = %q, want %q", tt.context, got, tt.want)
			}
		})
	}
}

// TestSearchAgreesWithScore checks the prepared Searcher against the plain
// reference algorithm for every catalog entry and a spread of contexts.
func TestSearchAgreesWithScore(t *testing.T) {
	contexts := []string{
		"Create a React component for the authentication",
		"js json go golang goroutines",
		"login oauth2 auth-flow",
		"Créer des données",
		"form validation hooks",
		"reactjs jsx schema",
		"",
	}
	s := New().Build(catalog)
	for _, ctx := range contexts {
		t.Run(ctx, func(t *testing.T) {
			var want []core.Match
			tokens := Tokenize(ctx)
			for _, e := range catalog {
				score, matched := referenceScore(tokens, e.Keywords, e.Priority)
				if len(matched) > 0 {
					want = append(want, core.Match{Path: e.Path, Score: score, MatchedKeywords: matched})
				}
			}
			slices.SortStableFunc(want, func(a, b core.Match) int {
				return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path))
			})
			if got := s.Search(ctx); !matchesEqual(got, want) {
				t.Errorf("Search(%q) =\n%s\nwant (from referenceScore)\n%s", ctx, formatMatches(got), formatMatches(want))
			}
		})
	}
}

func TestBuildDoesNotRetainEntries(t *testing.T) {
	entries := []core.MatchEntry{{Path: "ui/react", Keywords: []string{"react"}, Priority: 1}}
	s := New().Build(entries)
	entries[0].Path = "changed"
	entries[0].Keywords[0] = "vue"
	entries[0].Priority = 50

	want := []core.Match{{Path: "ui/react", Score: 1.001, MatchedKeywords: []string{"react"}}}
	if got := s.Search("react"); !matchesEqual(got, want) {
		t.Errorf("Search after mutating entries =\n%s\nwant\n%s", formatMatches(got), formatMatches(want))
	}
}

func TestSearchResultsAreIndependent(t *testing.T) {
	s := New().Build(catalog)
	first := s.Search("react")
	first[0].MatchedKeywords[0] = "tampered"
	second := s.Search("react")
	if got, want := second[0].MatchedKeywords[0], "react"; got != want {
		t.Errorf("second Search MatchedKeywords[0] = %q, want %q", got, want)
	}
}

func TestSearchConcurrent(t *testing.T) {
	s := New().Build(catalog)
	contexts := []string{"react component", "js node", "données base", "oauth login"}
	want := make([][]core.Match, len(contexts))
	for i, ctx := range contexts {
		want[i] = s.Search(ctx)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(contexts))
	for range 8 {
		for i, ctx := range contexts {
			wg.Go(func() {
				if got := s.Search(ctx); !matchesEqual(got, want[i]) {
					errs <- fmt.Sprintf("concurrent Search(%q) =\n%s\nwant\n%s", ctx, formatMatches(got), formatMatches(want[i]))
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func matchesEqual(a, b []core.Match) bool {
	return slices.EqualFunc(a, b, func(x, y core.Match) bool {
		return x.Path == y.Path && x.Score == y.Score && slices.Equal(x.MatchedKeywords, y.MatchedKeywords)
	})
}

func formatMatches(ms []core.Match) string {
	if len(ms) == 0 {
		return "  (none)"
	}
	var s string
	for _, m := range ms {
		s += fmt.Sprintf("  %s %v %q\n", m.Path, m.Score, m.MatchedKeywords)
	}
	return s
}

func TestDerivedKeywordsForSkillsWithoutKeywords(t *testing.T) {
	s := New().Build([]core.MatchEntry{
		{Path: "pdf-tools", Name: "pdf-tools", Description: "Extract text and tables from PDF files"},
		{Path: "declared", Keywords: []string{"pdf"}, Name: "declared", Description: "ignored words: tables extract"},
	})
	got := s.Search("extract tables from a pdf")
	if len(got) != 2 || got[0].Path != "declared" || got[1].Path != "pdf-tools" {
		t.Fatalf("got %+v, want declared (1/1) then pdf-tools", got)
	}
	// pdf-tools derives [pdf tools extract text tables files]: 3 of 6 match.
	if m := strings.Join(got[1].MatchedKeywords, ","); m != "pdf,extract,tables" || got[1].Score != 0.5 {
		t.Errorf("matched = %s score %v, want pdf,extract,tables and 0.5", m, got[1].Score)
	}
	if got := DeriveKeywords("mcp-builder", "Build MCP servers"); strings.Join(got, ",") != "mcp,builder,build,servers" {
		t.Errorf("DeriveKeywords = %v", got)
	}
}
