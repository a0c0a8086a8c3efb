package server

import (
	"net/http"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
)

// SyncState is what /healthz reports about the git content repo.
type SyncState struct {
	// Commit is the full hash of the served HEAD.
	Commit string
	// LastSync is the time of the last successful sync (zero if none yet).
	LastSync time.Time
}

// Health is the JSON body of /healthz (httpguard.HealthPath).
type Health struct {
	// Status is "ok".
	Status string `json:"status"`
	// Mode is "git" or "local".
	Mode string `json:"mode"`
	// Skills is the number of skills in the index.
	Skills int `json:"skills"`
	// LastSync is the last successful git sync, RFC 3339 with milliseconds ("" in local mode).
	LastSync string `json:"last_sync"`
	// Commit is the served commit of the content repo ("" in local mode).
	Commit string `json:"commit"`
	// Ready is what httpguard.ReadyPath answers.
	Ready bool `json:"ready"`
	// Provenance is where the served skills come from (the commit, its ref,
	// whether it verified, the lock file's digest); nil when nothing is known.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// HTTPHandler serves the server over the MCP Streamable HTTP transport
// behind httpguard's guards (httpguard.Handler): the server's side is its
// go-sdk server, its logger, whether the index is built, and its Health.
func (s *Server) HTTPHandler(opts httpguard.Options) http.Handler {
	if opts.Stateless {
		s.statelessHTTP.Store(true)
	}
	return httpguard.Handler(httpguard.Endpoint{
		MCP:    s.mcp,
		Logger: newSDKLogger(s.log.Named("http")),
		Loaded: s.loadedOK,
		Health: func(ready bool) any {
			h := s.health()
			h.Ready = ready
			if s.opts.Provenance != nil {
				h.Provenance = s.opts.Provenance()
			}
			return h
		},
	}, opts)
}

func (s *Server) health() Health {
	h := Health{Status: "ok", Mode: "local", Skills: s.snapshot().Len()}
	if s.opts.Sync != nil {
		st := s.opts.Sync()
		h.Mode, h.Commit = "git", st.Commit
		if !st.LastSync.IsZero() {
			h.LastSync = core.FormatTimestamp(st.LastSync)
		}
	}
	return h
}

// loadedOK reports whether the index is built, without error.
func (s *Server) loadedOK() bool {
	select {
	case <-s.loaded:
	default:
		return false
	}
	return s.loadErr == nil
}
