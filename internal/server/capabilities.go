package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unadvertised are the methods of capabilities this server does not
// advertise: it serves no logging level and no resource subscriptions.
var unadvertised = map[string]string{
	"logging/setLevel":      "logging",
	"resources/subscribe":   "resources.subscribe",
	"resources/unsubscribe": "resources.subscribe",
}

// refuseUnadvertised answers a method whose capability the server does not
// advertise with -32601 (method not found), as the MCP spec asks, rather
// than the go-sdk's default answer.
func refuseUnadvertised(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if capability, ok := unadvertised[method]; ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: "method not found: " + method + " (the server does not advertise the " + capability + " capability)"}
		}
		return next(ctx, method, req)
	}
}
