package skillscmd

import (
	"cmp"

	gitsync "github.com/skills-mcp/skills-mcp/core/gitproc" // syncs in the helper skills-mcp-git (issue 19)
	"github.com/skills-mcp/skills-mcp/core/server"
)

// provenance is what git mode serves: the commit, the ref it follows, and
// whether the commit's signature verified (server.Options.Provenance).
func (g *gitSource) provenance() *server.Provenance {
	p := g.syncer.Provenance()
	if p.Commit == "" && !g.syncer.Verifying() {
		p.Commit = g.syncer.Head()
	}
	return &server.Provenance{
		Commit: p.Commit, Ref: cmp.Or(g.ref, g.branch, gitsync.DefaultBranch), Pinned: g.ref != "",
		Verified: p.Verified, Signer: p.Signer,
	}
}
