package httpguard

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is where the Streamable HTTP endpoint is served; HealthPath answers
// load balancers and orchestrators.
const (
	MCPPath    = "/mcp"
	HealthPath = "/healthz"
)

// The defaults of Options' zero values; config.yaml's http section (see
// config.HTTPConfig) sets each of them.
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

// Options configures the Streamable HTTP endpoint: what the operator sets.
// Zero values are defaults.
type Options struct {
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
	// Ready, when set, says whether this replica serves what it should (git
	// mode: the pinned commit, verified when SKILLS_VERIFY is on); ReadyPath
	// answers 503 until it does and Endpoint.Loaded agrees. nil: ready once
	// loaded.
	Ready func() bool
	// RequestIDs, in stateless mode, puts each request's JSON-RPC id into
	// the context its handlers see (internal/telemetry.RequestID), for the
	// request span's jsonrpc.request.id. Set when telemetry is on.
	RequestIDs bool
}

// Endpoint is what the guards stand in front of: the server's side, which
// the MCP binding fills in.
type Endpoint struct {
	// MCP is the go-sdk server every session is served by; required.
	MCP *mcp.Server
	// Logger receives the go-sdk HTTP transport's own records; nil discards them.
	Logger *slog.Logger
	// Loaded says whether the server can answer (its index is built); nil
	// means always.
	Loaded func() bool
	// Health is the JSON body of a GET at HealthPath, which needs the token
	// (a probe without credentials gets the status alone); ready is what
	// ReadyPath answers at that moment. nil answers {"status":"ok"}.
	Health func(ready bool) any
}

// Handler serves ep.MCP over the MCP Streamable HTTP transport at MCPPath,
// its health report at HealthPath and its readiness at ReadyPath. Every
// request first passes the DNS-rebinding checks (Host and Origin), then the
// bearer token when one is set (ReadyPath excepted); each write of an answer
// gets WriteTimeout. At MCPPath a body larger than MaxBodyBytes is refused
// with 413, before it is read when its length is announced; the body is read
// within ReadTimeout and counts against MaxBodyMemoryBytes until the request
// ends; sessions beyond MaxSessions evict the least recently used.
func Handler(ep Endpoint, opts Options) http.Handler {
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
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ep.MCP }, &mcp.StreamableHTTPOptions{
		Stateless:           opts.Stateless,
		Logger:              ep.Logger,
		SessionTimeout:      opts.SessionIdleTimeout,
		MaxRequestBodyBytes: opts.MaxBodyBytes,
	})
	ready := func() bool {
		return (ep.Loaded == nil || ep.Loaded()) && (opts.Ready == nil || opts.Ready())
	}
	mux := http.NewServeMux()
	var mcpHandler http.Handler = streamable
	if !opts.Stateless {
		mcpHandler = initializeFirst(newSessionCap(opts.MaxSessions, ep.MCP).wrap(mcpHandler))
	}
	if opts.Stateless && opts.RequestIDs {
		mcpHandler = withRequestID(mcpHandler)
	}
	budget := &bodyBudget{left: opts.MaxBodyMemoryBytes}
	mux.Handle(MCPPath, limitBody(opts.MaxBodyBytes, budget, opts.ReadTimeout, mcpHandler))
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		var report any = struct {
			Status string `json:"status"`
		}{"ok"}
		if ep.Health != nil {
			report = ep.Health(ready())
		}
		_ = json.NewEncoder(w).Encode(report)
	})
	return writeDeadlines(opts.WriteTimeout, checkOrigin(opts.AllowedOrigins, readyz(ready, requireToken(opts.Token, mux))))
}
