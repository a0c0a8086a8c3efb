package server

import (
	"context"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MetaPrefix starts every _meta key of this project: the reverse-DNS form of
// its home, github.com/skills-mcp, and a slash, as MCP asks of vendor keys.
const MetaPrefix = "io.github.skills-mcp/"

// MetaProvenance is the _meta key under which skills/list, skills/get,
// get_skill and initialize answers say where the served skills come from.
const MetaProvenance = MetaPrefix + "provenance"

// Provenance is where the served skills come from, so a client can show it
// and an operator can tell which replica serves what.
type Provenance struct {
	// Commit is the served commit of the content repo ("" in local mode, or
	// when no commit is served).
	Commit string `json:"commit,omitempty"`
	// Ref is what git mode follows: the pin (SKILLS_REF) or the branch.
	Ref string `json:"ref,omitempty"`
	// Pinned is true when Ref is a pin.
	Pinned bool `json:"pinned,omitempty"`
	// Verified is true when Commit's signature verified against the allowed
	// signers (SKILLS_VERIFY=signed).
	Verified bool `json:"verified"`
	// Signer names who signed Commit, when Verified.
	Signer string `json:"signer,omitempty"`
	// Lock is the sha256 digest of the lock file the skills are served
	// against (serve --frozen), "" without one.
	Lock string `json:"lock,omitempty"`
}

// provenanceMeta is the _meta of answers that carry the provenance, nil
// when Options.Provenance is not set or has nothing to say.
func (s *Server) provenanceMeta() mcp.Meta {
	if s.opts.Provenance == nil {
		return nil
	}
	p := s.opts.Provenance()
	if p == nil {
		return nil
	}
	return mcp.Meta{MetaProvenance: *p}
}

// provenanceMethods are the requests whose results carry the provenance.
var provenanceMethods = map[string]bool{"initialize": true, "server/discover": true, "skills/list": true, "skills/get": true}

// addProvenance puts the provenance into the _meta of the results of
// provenanceMethods, beside what the result's _meta already holds.
func (s *Server) addProvenance(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil || !provenanceMethods[method] {
			return res, err
		}
		setProvenance(res, s.provenanceMeta())
		return res, err
	}
}

// setProvenance merges meta into res's _meta when res has one.
func setProvenance(res any, meta mcp.Meta) {
	if meta == nil {
		return
	}
	r, ok := res.(interface {
		GetMeta() map[string]any
		SetMeta(map[string]any)
	})
	if !ok {
		return
	}
	merged := maps.Clone(r.GetMeta())
	if merged == nil {
		merged = map[string]any{}
	}
	maps.Copy(merged, meta)
	r.SetMeta(merged)
}
