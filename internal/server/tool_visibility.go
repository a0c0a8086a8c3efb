package server

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hideRefusedTools leaves out of tools/list the tools a request's transport
// would refuse: run_script when scripts.enabled is false, and over HTTP
// unless scripts.allow_remote is true. A call of a hidden tool still gets
// the refusal naming the setting, rather than "unknown tool".
func (s *Server) hideRefusedTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/list" || !s.scriptsRefused(req.GetExtra()) {
			return res, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok || list == nil {
			return res, err
		}
		i := slices.IndexFunc(list.Tools, func(t *mcp.Tool) bool { return t.Name == "run_script" })
		if i < 0 {
			return res, err
		}
		out := *list
		out.Tools = slices.Delete(slices.Clone(list.Tools), i, i+1)
		return &out, nil
	}
}

// scriptsRefused reports whether run_script refuses every call arriving like
// one with extra.
func (s *Server) scriptsRefused(extra *mcp.RequestExtra) bool {
	cfg := s.opts.Config.Scripts
	return !cfg.Enabled || (overHTTP(extra) && !cfg.AllowRemote)
}
