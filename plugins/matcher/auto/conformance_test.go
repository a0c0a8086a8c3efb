package auto_test

import (
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/auto"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// The suite's corpus is a mixed tree: four skills declare keywords, one does
// not.
func TestConformance(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New: func() core.Matcher { return auto.New(keyword.New(), ranked.New()) },
		ContextFor: func(e core.MatchEntry) string {
			if len(e.Keywords) == 0 {
				return e.Description
			}
			return strings.Join(e.Keywords, " ")
		},
	})
}

func TestConformanceByName(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New:        func() core.Matcher { return auto.New(keyword.New(), ranked.New()) },
		ContextFor: func(e core.MatchEntry) string { return e.Name },
	})
}
