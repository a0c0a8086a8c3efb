package skillscmd

import (
	"cmp"

	gitsync "github.com/skills-mcp/skills-mcp/internal/gitsync" // syncs in the helper skills-mcp-git (issue 19)
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// provenanceOf is server.Options.Provenance: git mode's commit and the lock
// file's digest; nil in local mode without a lock file.
func provenanceOf(g *gitSource, f *frozen) func() *server.Provenance {
	lock := ""
	if f != nil {
		lock = f.digest
	}
	switch {
	case g != nil:
		return func() *server.Provenance { p := g.provenance(); p.Lock = lock; return p }
	case lock != "":
		return func() *server.Provenance { return &server.Provenance{Lock: lock} }
	}
	return nil
}

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

// ready is /readyz in git mode: a sync has ended and a commit is served,
// verified when SKILLS_VERIFY is on, and, with SKILLS_REF, it is the commit
// the pin names. A replica restarted with a new pin stays not ready (and
// serves its old commit) until it has fetched, and verified, the new one.
func (g *gitSource) ready() bool {
	p := g.syncer.Provenance()
	switch {
	case !p.Synced, p.Commit == "":
		return false
	case g.syncer.Verifying() && !p.Verified:
		return false
	case g.ref != "":
		return p.Target != "" && p.Commit == p.Target
	}
	return true
}
