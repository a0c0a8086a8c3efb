package server

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
)

// overHTTP reports whether a request came through the HTTP transport.
func overHTTP(extra *mcp.RequestExtra) bool { return httpguard.OverHTTP(extra) }

// checkRemoteRun is the first step of the run_script cascade for a remote
// caller: a call over HTTP runs code on the server only when the operator
// allows it (SKILLS_SCRIPTS_ALLOW_REMOTE=true, which sets
// scripts.allow_remote; a content repository's config.yaml cannot).
func checkRemoteRun(extra *mcp.RequestExtra, cfg config.ScriptsConfig) error {
	if overHTTP(extra) && !cfg.AllowRemote {
		return &kindError{kind: core.ErrScriptsDisabled,
			msg: "Script execution over HTTP is disabled on this server: a remote caller may not run code on it " +
				"unless the operator sets SKILLS_SCRIPTS_ALLOW_REMOTE=true (scripts.allow_remote)."}
	}
	return nil
}
