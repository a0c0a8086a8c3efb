package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

// MCPPath is where the Streamable HTTP endpoint is served; HealthPath answers
// load balancers and orchestrators.
const (
	MCPPath    = "/mcp"
	HealthPath = "/healthz"
)

// The defaults of HTTPOptions' zero values; config.yaml's http section (see
// core.HTTPConfig) sets each of them.
const (
	// DefaultMaxBodyBytes bounds an HTTP request body.
	DefaultMaxBodyBytes = 4 << 20
	// DefaultMaxBodyMemoryBytes bounds the bytes of all bodies held at once.
	DefaultMaxBodyMemoryBytes = 16 << 20
	// DefaultSessionIdleTimeout closes a session (sessionful mode) that sees no
	// request for that long, so clients that vanish do not leak sessions.
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultMaxSessions caps live sessions.
	DefaultMaxSessions = 1000
	// DefaultReadTimeout bounds the arrival of a request body.
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds each write of an answer.
	DefaultWriteTimeout = 30 * time.Second
)

// SyncState is what /healthz reports about the git content repo.
type SyncState struct {
	// Commit is the full hash of the served HEAD.
	Commit string
	// LastSync is the time of the last successful sync (zero if none yet).
	LastSync time.Time
}

// HTTPOptions configures the Streamable HTTP endpoint. Zero values are defaults.
type HTTPOptions struct {
	// Stateless serves without sessions: each POST stands alone, so several
	// instances can sit behind any load balancer. Only a stateless endpoint
	// negotiates protocol 2026-07-28 (server/discover), which the Skills
	// extension is written against; a sessionful one stops at 2025-11-25.
	Stateless bool
	// Token, when not empty, must arrive on every request as
	// "Authorization: Bearer <Token>"; other requests get 401.
	Token string
	// MaxBodyBytes bounds a request body (413 beyond it); 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxBodyMemoryBytes bounds the bytes of the bodies of all requests held
	// at once (503 beyond it); 0 means DefaultMaxBodyMemoryBytes.
	MaxBodyMemoryBytes int64
	// SessionIdleTimeout closes idle sessions; 0 means DefaultSessionIdleTimeout.
	SessionIdleTimeout time.Duration
	// MaxSessions caps live sessions, evicting the least recently used; 0
	// means DefaultMaxSessions.
	MaxSessions int
	// ReadTimeout bounds the arrival of a request body (408 beyond it); 0
	// means DefaultReadTimeout. The server's ReadHeaderTimeout bounds the head.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of an answer; 0 means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// AllowedOrigins are extra browser origins ("https://app.example.com")
	// accepted besides the endpoint's own.
	AllowedOrigins []string
	// Sync reports the git state for /healthz; nil in local mode.
	Sync func() SyncState
	// Ready, when set, says whether this replica serves what it should (git
	// mode: the pinned commit, verified when SKILLS_VERIFY is on); ReadyPath
	// answers 503 until it does and the index is built. nil: ready once the
	// index is built.
	Ready func() bool
	// RequestIDs, in stateless mode, puts each request's JSON-RPC id into
	// the context its handlers see (internal/telemetry.RequestID), for the
	// request span's jsonrpc.request.id. Set when telemetry is on.
	RequestIDs bool
}

// Health is the JSON body of /healthz.
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
	// Ready is what ReadyPath answers.
	Ready bool `json:"ready"`
	// Provenance is where the served skills come from (the commit, its ref,
	// whether it verified, the lock file's digest); nil when nothing is known.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// HTTPHandler serves the server over the MCP Streamable HTTP transport at
// MCPPath and a health report at HealthPath. Every request first passes the
// DNS-rebinding checks (Host and Origin), then the bearer token when one is
// set; each write of an answer gets WriteTimeout. At MCPPath a body larger
// than MaxBodyBytes is refused with 413, before it is read when its length is
// announced; the body is read within ReadTimeout and counts against
// MaxBodyMemoryBytes until the request ends; sessions beyond MaxSessions
// evict the least recently used.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxBodyMemoryBytes <= 0 {
		opts.MaxBodyMemoryBytes = DefaultMaxBodyMemoryBytes
	}
	opts.MaxBodyMemoryBytes = max(opts.MaxBodyMemoryBytes, opts.MaxBodyBytes+1)
	if opts.SessionIdleTimeout <= 0 {
		opts.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.Stateless {
		s.statelessHTTP.Store(true)
	}
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:           opts.Stateless,
		Logger:              newSDKLogger(s.log.Named("http")),
		SessionTimeout:      opts.SessionIdleTimeout,
		MaxRequestBodyBytes: opts.MaxBodyBytes,
	})
	mux := http.NewServeMux()
	var mcpHandler http.Handler = streamable
	if !opts.Stateless {
		mcpHandler = initializeFirst(newSessionCap(opts.MaxSessions, s.mcp).wrap(mcpHandler))
	}
	if opts.Stateless && opts.RequestIDs {
		mcpHandler = withRequestID(mcpHandler)
	}
	budget := &bodyBudget{left: opts.MaxBodyMemoryBytes}
	mux.Handle(MCPPath, limitBody(opts.MaxBodyBytes, budget, opts.ReadTimeout, mcpHandler))
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		h := s.health(opts.Sync)
		h.Ready = s.ready(opts.Ready)
		if s.opts.Provenance != nil {
			h.Provenance = s.opts.Provenance()
		}
		_ = json.NewEncoder(w).Encode(h)
	})
	return writeDeadlines(opts.WriteTimeout, checkOrigin(opts.AllowedOrigins, s.readyz(opts.Ready, requireToken(opts.Token, mux))))
}

func (s *Server) health(sync func() SyncState) Health {
	h := Health{Status: "ok", Mode: "local", Skills: s.snapshot().Len()}
	if sync != nil {
		st := sync()
		h.Mode, h.Commit = "git", st.Commit
		if !st.LastSync.IsZero() {
			h.LastSync = core.FormatTimestamp(st.LastSync)
		}
	}
	return h
}
