package skillscmd

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/hybrid"
)

// newHybridMatcher is the hybrid matcher (plugins/matcher/hybrid) on the
// endpoint of SKILLS_EMBEDDINGS_URL, its skill vectors cached in the state
// directory (beside the git clone, never inside it). Without the URL it stops
// start-up naming the variable.
func newHybridMatcher(pc PluginContext) (core.Matcher, error) {
	cacheDir := ""
	if pc.StateDir != "" {
		cacheDir = filepath.Join(pc.StateDir, "embeddings-cache")
	}
	m, err := hybrid.New(hybrid.Options{
		URL:      pc.Getenv("SKILLS_EMBEDDINGS_URL"),
		Model:    strings.TrimSpace(pc.Getenv("SKILLS_EMBEDDINGS_MODEL")),
		Key:      strings.TrimSpace(pc.Getenv("SKILLS_EMBEDDINGS_KEY")),
		CacheDir: cacheDir,
		Logger:   pc.Logger,
	})
	switch {
	case errors.Is(err, hybrid.ErrNoURL):
		return nil, errors.New("SKILLS_EMBEDDINGS_URL is not set: the hybrid matcher needs an OpenAI-compatible embeddings endpoint " +
			"(e.g. SKILLS_EMBEDDINGS_URL=http://localhost:11434/v1/embeddings); choose another matcher with SKILLS_MATCHER")
	case err != nil:
		return nil, errors.New("SKILLS_EMBEDDINGS_URL: " + err.Error())
	}
	return m, nil
}
