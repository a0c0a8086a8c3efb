package skillscmd

import (
	"cmp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
)

// buildMatcher returns the matcher named by SKILLS_MATCHER, else
// matching.matcher, else "auto", from the running Command's registry. An
// unknown name is a usage error listing the known ones, sorted.
func buildMatcher(a *app, loaded *config.Loaded) (core.Matcher, error) {
	getenv := a.getenv
	name := matcherName(loaded.Config, getenv)
	plugin, err := a.cmd.matchers.Lookup(name)
	if err != nil {
		return nil, usagef("matching.matcher / SKILLS_MATCHER: %w", err)
	}
	// A command that cannot name a state directory (no HOME) still routes:
	// a matcher that caches (hybrid) then keeps its cache in memory.
	stateDir, _ := stateDirectory(getenv)
	m, err := plugin.New(pluginContext(loaded, matchersSection+"."+name, a.log.Named("matcher"), stateDir, getenv))
	if err != nil {
		return nil, usagef("matcher %s: %w", name, err)
	}
	return m, nil
}

// matcherName is the matcher configured: SKILLS_MATCHER, else
// matching.matcher, else "auto".
func matcherName(cfg config.Config, getenv func(string) string) string {
	return cmp.Or(getenv("SKILLS_MATCHER"), cfg.Matching.Matcher, defaultMatcher)
}
