package skillscmd

import (
	"github.com/skills-mcp/skills-mcp/internal/gctune"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// gcPolicy is the process's collector policy around the server's builds
// (internal/gctune: a lower goal while a rebuild runs, the old snapshot's
// memory returned after it), nil when the environment set GOGC: the
// collector is then the operator's, left alone.
func gcPolicy(getenv func(string) string) server.MemoryPolicy {
	if getenv("GOGC") != "" {
		return nil
	}
	return &gctune.Policy{}
}
