package auto_test

import (
	"reflect"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/auto"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// keywordsTree is written for spec 000 §5: every skill declares keywords
// (`_root` and `_index` do not count).
var keywordsTree = []core.MatchEntry{
	{Path: "_root", Name: "_root", Description: "House rules"},
	{Path: "ui/_index", Name: "ui", Description: "User interfaces"},
	{Path: "ui/react/auth", Name: "auth", Keywords: []string{"react", "login"}, Description: "Sign-in in React"},
	{Path: "api/rest", Name: "rest", Keywords: []string{"rest", "pagination"}, Description: "REST endpoints"},
	{Path: "guides/code-review", Name: "code-review", Keywords: []string{"review", "pull request"}, Description: "Review a pull request"},
}

// agentSkill is an Agent Skills folder: no keywords, a name and a
// description of 20 to 60 words, each of which §5 would make a keyword.
var agentSkill = core.MatchEntry{Path: "pdf-tools", Name: "pdf-tools", Description: "Comprehensive toolkit for PDF documents: " +
	"extract text and tables, merge and split files, rotate pages, add watermarks, fill in forms and flatten them, " +
	"and make scanned pages searchable. Use whenever the user mentions a .pdf file or asks to produce one."}

var contexts = []string{"login form in react", "pdf", "pdf-tools", "fill a pdf form", "rest pagination", "word documents", "review my pull request", "auth"}

func TestPicksPerSnapshot(t *testing.T) {
	folders := []core.MatchEntry{
		agentSkill,
		{Path: "docx", Name: "docx", Description: "Create and edit Word documents"},
		{Path: "api/rest", Name: "rest", Keywords: []string{"rest", "pagination"}, Description: "REST endpoints"},
	}
	tests := []struct {
		name    string
		entries []core.MatchEntry
		want    core.Matcher
	}{
		{"every skill declares keywords: spec 000 §5 byte for byte", keywordsTree, keyword.New()},
		{"mostly folders without keywords: ranked", folders, ranked.New()},
		{"empty", nil, keyword.New()},
	}
	m := auto.New(keyword.New(), ranked.New())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := m.Build(tt.entries), tt.want.Build(tt.entries)
			for _, ctx := range contexts {
				if g, w := got.Search(ctx), want.Search(ctx); !reflect.DeepEqual(g, w) {
					t.Errorf("Search(%q) = %+v, want %+v", ctx, g, w)
				}
			}
		})
	}
}

// TestMixedTree: keywords skills plus an Agent Skill without keywords route
// both kinds, the Agent Skill by the ranked matcher and every skill by its
// exact name or path, answered as get_skill answers (spec 000 §5.3 over the
// two matchers' scores).
func TestMixedTree(t *testing.T) {
	entries := append([]core.MatchEntry{agentSkill}, keywordsTree...)
	s := auto.New(keyword.New(), ranked.New()).Build(entries)
	if core.IsCalibrated(s) {
		t.Error("a mixed tree's scores are §5's beside confidences, not confidences")
	}
	cfg := config.Default().Matching.Rank()
	tests := []struct {
		context string
		want    string
	}{
		{"pdf-tools", "pdf-tools"},                       // its exact name: under §5 alone it scored below min_score
		{"PDF tools", "pdf-tools"},                       // the name, folded
		{"merge these PDF files", "pdf-tools"},           // a task, by the ranked matcher
		{"code-review", "guides/code-review"},            // a keywords skill by its name
		{"guides/code-review", "guides/code-review"},     // by its path
		{"login form in react", "ui/react/auth"},         // by §5
		{"review my pull request", "guides/code-review"}, // by §5
	}
	for _, tt := range tests {
		r := core.SearchRank(s, tt.context, cfg)
		if r.Outcome != core.SingleMatch || r.Matches[0].Path != tt.want {
			t.Errorf("%q: %v %+v, want a single match of %s", tt.context, r.Outcome, r.Matches, tt.want)
		}
	}
	// A keywords skill keeps its §5 score when no name is given.
	kw := keyword.New().Build(keywordsTree).Search("login form in react")
	got := s.Search("login form in react")
	if len(got) == 0 || len(kw) == 0 || !reflect.DeepEqual(got[0], kw[0]) {
		t.Errorf("Search = %+v, want §5's %+v first", got, kw)
	}
	if r := core.SearchRank(s, "book me a flight to Lisbon", cfg); r.Outcome != core.NoMatch {
		t.Errorf("off-topic: %+v, want no match", r)
	}
	ex, ok := s.(core.Explainer)
	if !ok {
		t.Fatal("a mixed tree's searcher does not explain")
	}
	if cs := ex.Explain("merge pdf files", "pdf-tools"); len(cs) == 0 || cs[0].Field == "" {
		t.Errorf("Explain of the Agent Skill: %+v, want the ranked matcher's contributions", cs)
	}
	if cs := ex.Explain("login form in react", "ui/react/auth"); cs != nil {
		t.Errorf("Explain of a keywords skill: %+v, want nil (its keywords explain it)", cs)
	}
}
