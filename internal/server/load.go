package server

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// CanLoadLater reports whether a server of these tool sets may answer
// initialize before its index is built (Options.IndexPending): true when no
// tool description is built from the skills (the skill and sk sets list them),
// so building the index later changes nothing a client has been shown and
// sends no list_changed notification.
func CanLoadLater(toolSets []string) bool {
	served := servedToolSets(toolSets)
	return !served[ToolSetSkill] && !served[ToolSetSk]
}

// LoadIndex builds the index of a server made with Options.IndexPending and
// releases the requests waiting for it (every one but the handshake and ping); when the build fails they get a
// JSON-RPC internal error naming the reason, as every later request does.
// It must be called once. A process spends most of its start-up indexing, so
// building the index while the client's initialize round trip runs is what
// lets a large repository answer initialize at once.
func (s *Server) LoadIndex(ctx context.Context) (*index.Snapshot, error) {
	if !s.opts.IndexPending {
		return nil, errors.New("loading the index: the server was not made with Options.IndexPending")
	}
	if !s.loadStarted.CompareAndSwap(false, true) {
		return nil, errors.New("loading the index: LoadIndex was already called; Rebuild rebuilds it")
	}
	snap, restore, err := s.rebuild(ctx)
	restore()
	if err == nil {
		s.skills.Rebase() // the first snapshot is the one served from the start: nothing listed has changed
	}
	s.loadErr = err
	close(s.loaded)
	return snap, err
}

// Loaded is closed once the index is built (at once for a server not made
// with Options.IndexPending), successfully or not.
func (s *Server) Loaded() <-chan struct{} { return s.loaded }

// waitLoaded holds every request but the handshake (initialize, or
// server/discover of the stateless protocol) and ping, and lets
// notifications through, until the index is built.
func (s *Server) waitLoaded(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "initialize" || method == "server/discover" || method == "ping" || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		select {
		case <-s.loaded:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if s.loadErr != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the skills index could not be built: " + s.loadErr.Error()}
		}
		return next(ctx, method, req)
	}
}
