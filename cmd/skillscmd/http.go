package skillscmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// httpShutdownTimeout bounds how long in-flight requests may finish after
// SIGINT or SIGTERM (they are cancelled at once: cancelOnStop) before the
// remaining connections are closed; the later steps get what remains of
// shutdownSteps (shutdown.go).
const httpShutdownTimeout = 2 * time.Second

// httpFlags are serve's Streamable HTTP flags; token comes from the
// environment only (a flag would show in ps).
type httpFlags struct {
	addr      string
	stateless bool
	insecure  bool
	token     string
	// requestIDs is set when telemetry is on (httpguard.Options.RequestIDs).
	requestIDs bool
	// ready is httpguard.Options.Ready: git mode's readiness.
	ready func() bool
}

func (h *httpFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&h.addr, "http", getenv("SKILLS_HTTP_ADDR"),
		"serve MCP over Streamable HTTP on HOST:PORT at "+httpguard.MCPPath+" instead of stdio (default $SKILLS_HTTP_ADDR)")
	stateless, _ := strconv.ParseBool(getenv("SKILLS_HTTP_STATELESS"))
	fs.BoolVar(&h.stateless, "stateless", stateless,
		"with --http: no sessions, so several instances can sit behind any load balancer (default $SKILLS_HTTP_STATELESS)")
	fs.BoolVar(&h.insecure, "insecure", false,
		"with --http: allow a non-loopback address without SKILLS_HTTP_TOKEN (something in front must authenticate callers)")
	h.token = strings.TrimSpace(getenv("SKILLS_HTTP_TOKEN"))
}

// check validates the flags once parsed: --stateless and --insecure need
// --http, and an address reachable from other machines needs a token.
func (h *httpFlags) check(fs *flag.FlagSet) error {
	if h.addr == "" {
		var stray []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "stateless" || f.Name == "insecure" {
				stray = append(stray, "--"+f.Name)
			}
		})
		if len(stray) > 0 {
			return usagef("serve: %s only applies with --http ADDR", strings.Join(stray, " and "))
		}
		return nil
	}
	if h.token != "" && len(h.token) < minHTTPTokenLen {
		return &verbatimError{fmt.Sprintf("SKILLS_HTTP_TOKEN is %d characters; a bearer token needs at least %d (a short one is guessable): "+
			"generate one with `openssl rand -hex 32`", len(h.token), minHTTPTokenLen)}
	}
	return checkExposure(h.addr, h.token, h.insecure)
}

// minHTTPTokenLen is the shortest SKILLS_HTTP_TOKEN serve accepts.
const minHTTPTokenLen = 16

// checkExposure refuses to serve a non-loopback address without a bearer
// token, unless insecure says something in front authenticates callers.
func checkExposure(addr, token string, insecure bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--http %q: want HOST:PORT, such as 127.0.0.1:8080 (%w)", addr, err)
	}
	if token != "" || insecure || httpguard.IsLoopbackHost(host) {
		return nil
	}
	where := host
	if host == "" || host == "0.0.0.0" || host == "::" {
		where = "every network interface"
	}
	return usagef("refusing to serve HTTP on %s (%s) without authentication: set SKILLS_HTTP_TOKEN "+
		"(clients then send \"Authorization: Bearer <token>\"), bind a loopback address such as 127.0.0.1:%s, "+
		"or pass --insecure when a proxy in front of skills-mcp authenticates callers", addr, where, port)
}

// serveHTTP serves srv over Streamable HTTP until ctx ends (SIGINT, SIGTERM),
// then shuts down gracefully: in-flight requests get httpShutdownTimeout to
// finish, long-lived SSE streams end at once.
//
// The limits of config.yaml's http section bound what clients hold: a
// request's head and body each arrive within read_timeout_seconds, each write
// completes within write_timeout_seconds, idle keep-alive connections close
// after idle_timeout_seconds, and at most max_connections are open at once.
func serveHTTP(ctx context.Context, srv *server.Server, hf httpFlags, limits config.HTTPConfig, log hclog.Logger) error {
	ln, err := net.Listen("tcp", hf.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", hf.addr, err)
	}
	stopping, stop := context.WithCancel(context.Background())
	defer stop()
	readTimeout := time.Duration(limits.ReadTimeoutSeconds) * time.Second
	handler := srv.HTTPHandler(httpguard.Options{
		Stateless: hf.stateless, Token: hf.token,
		MaxBodyBytes: limits.MaxBodyBytes, MaxBodyMemoryBytes: limits.MaxBodyMemoryBytes,
		MaxSessions: limits.MaxSessions, SessionIdleTimeout: time.Duration(limits.SessionIdleSeconds) * time.Second,
		ReadTimeout: readTimeout, WriteTimeout: time.Duration(limits.WriteTimeoutSeconds) * time.Second,
		RequestIDs: hf.requestIDs, Ready: hf.ready,
	})
	hs := &http.Server{
		Handler:           endStreamsOn(stopping, handler),
		ReadHeaderTimeout: readTimeout,
		IdleTimeout:       time.Duration(limits.IdleTimeoutSeconds) * time.Second,
		ErrorLog:          log.StandardLogger(&hclog.StandardLoggerOptions{InferLevels: true}),
	}
	ln = limitConnections(ln, limits.MaxConnections)
	mode := "sessions"
	if hf.stateless {
		mode = "stateless"
	}
	log.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+httpguard.MCPPath,
		"mode", mode, "auth", authMode(hf), "health", "http://"+ln.Addr().String()+httpguard.HealthPath)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving HTTP on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	log.Info("shutting down the HTTP server")
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), httpShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("HTTP shutdown timed out; closing the remaining connections", "error", err)
		_ = hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving HTTP on %s: %w", ln.Addr(), err)
	}
	return nil
}

func authMode(hf httpFlags) string {
	switch {
	case hf.token != "":
		return "bearer token"
	case hf.insecure:
		return "none (--insecure)"
	default:
		return "none (loopback only)"
	}
}

// endStreamsOn ends GET requests (the standalone SSE streams of sessions,
// which never finish by themselves) when stopping is cancelled, so a graceful
// shutdown does not wait for them; POSTs are left to finish.
func endStreamsOn(stopping context.Context, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(stopping, cancel)()
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}
