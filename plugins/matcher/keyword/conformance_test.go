package keyword_test

import (
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/matchertest"
)

func TestConformance(t *testing.T) {
	matchertest.Run(t, matchertest.Fixtures{
		New: func() core.Matcher { return keyword.New() },
		ContextFor: func(e core.MatchEntry) string {
			if len(e.Keywords) == 0 {
				return e.Description
			}
			return strings.Join(e.Keywords, " ")
		},
	})
}
