package main

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
)

func TestExactNameConformance(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New:        func() core.Matcher { return exactName{} },
		ContextFor: func(e core.MatchEntry) string { return e.Name },
	})
}

func TestExactNameMatchesNothingElse(t *testing.T) {
	s := exactName{}.Build(matchertest.Corpus())
	tests := []struct {
		context string
		want    []string
	}{
		{"auth", []string{"ui/react/auth"}},
		{"ui/react/auth", []string{"ui/react/auth"}},
		{"  deploy\n", []string{"ops/deploy"}},
		{"Auth", nil},
		{"react authentication login", nil},
		{"ui/react", nil},
		{"auth deploy", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range s.Search(tt.context) {
			got = append(got, m.Path)
		}
		if len(got) != len(tt.want) || len(got) > 0 && got[0] != tt.want[0] {
			t.Errorf("Search(%q) = %v, want %v", tt.context, got, tt.want)
		}
	}
}
