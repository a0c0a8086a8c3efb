package ranked_test

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

func TestConformance(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New:        func() core.Matcher { return ranked.New() },
		ContextFor: func(e core.MatchEntry) string { return e.Description },
	})
}

func TestConformanceByName(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New:        func() core.Matcher { return ranked.New() },
		ContextFor: func(e core.MatchEntry) string { return e.Name },
	})
}
