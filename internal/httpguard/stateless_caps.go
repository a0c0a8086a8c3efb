package httpguard

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StatelessCapabilities returns the middleware that drops listChanged from the capabilities an
// initialize over a stateless endpoint answers: the protocols before
// 2026-07-28 deliver list_changed on the GET /mcp stream, which a stateless
// endpoint does not serve (405), so it cannot keep that promise. At
// 2026-07-28 (server/discover) notifications come on subscriptions/listen,
// which a stateless endpoint serves: its capabilities stay whole. stateless
// says whether a stateless Handler serves the server.
func StatelessCapabilities(stateless func() bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return statelessCapabilities(stateless, next)
	}
}

func statelessCapabilities(stateless func() bool, next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "initialize" || !stateless() || !OverHTTP(req.GetExtra()) {
			return res, err
		}
		init, ok := res.(*mcp.InitializeResult)
		if !ok || init == nil || init.Capabilities == nil {
			return res, err
		}
		out := *init
		caps := *init.Capabilities
		if caps.Tools != nil {
			tools := *caps.Tools
			tools.ListChanged = false
			caps.Tools = &tools
		}
		if caps.Prompts != nil {
			prompts := *caps.Prompts
			prompts.ListChanged = false
			caps.Prompts = &prompts
		}
		if caps.Resources != nil {
			resources := *caps.Resources
			resources.ListChanged = false
			caps.Resources = &resources
		}
		out.Capabilities = &caps
		return &out, nil
	}
}
