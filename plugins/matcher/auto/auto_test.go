package auto_test

import (
	"reflect"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/auto"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

func TestPicksPerSnapshot(t *testing.T) {
	tree := []core.MatchEntry{
		{Path: "_root", Name: "_root", Description: "House rules"},
		{Path: "ui/_index", Name: "ui", Description: "User interfaces"},
		{Path: "ui/react/auth", Name: "auth", Keywords: []string{"react", "login"}, Description: "Sign-in in React"},
		{Path: "api/rest", Name: "rest", Keywords: []string{"rest", "pagination"}, Description: "REST endpoints"},
		{Path: "pdf", Name: "pdf", Description: "Read and fill PDF files"},
	}
	folders := []core.MatchEntry{
		{Path: "pdf", Name: "pdf", Description: "Read and fill PDF files"},
		{Path: "docx", Name: "docx", Description: "Create and edit Word documents"},
		{Path: "api/rest", Name: "rest", Keywords: []string{"rest", "pagination"}, Description: "REST endpoints"},
	}
	tests := []struct {
		name    string
		entries []core.MatchEntry
		want    core.Matcher
	}{
		{"keywords on most skills: spec 000 §5", tree, keyword.New()},
		{"mostly folders without keywords: ranked", folders, ranked.New()},
		{"empty", nil, keyword.New()},
	}
	m := auto.New(keyword.New(), ranked.New())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := m.Build(tt.entries), tt.want.Build(tt.entries)
			for _, ctx := range []string{"login form in react", "pdf", "fill a pdf", "rest pagination", "word documents"} {
				if g, w := got.Search(ctx), want.Search(ctx); !reflect.DeepEqual(g, w) {
					t.Errorf("Search(%q) = %+v, want %+v", ctx, g, w)
				}
			}
		})
	}
}
