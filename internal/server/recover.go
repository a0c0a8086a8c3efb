package server

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverMiddleware turns a panic in any handler into an internal-error answer
// and keeps serving: the go-sdk does not recover panics, and one panicking handler
// would otherwise end a stdio server. A tools/call panic becomes an isError tool
// result; other methods answer JSON-RPC -32603. The stack goes to the log.
func recoverMiddleware(log hclog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if r := recover(); r != nil {
					log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
					if method == "tools/call" {
						res, err = errorResult(fmt.Sprintf("Internal error while handling %s: %v", toolName(req), r)), nil
						return
					}
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)}
				}
			}()
			return next(ctx, method, req)
		}
	}
}

func toolName(req mcp.Request) string {
	if ctr, ok := req.(*mcp.CallToolRequest); ok && ctr.Params != nil {
		return "tool " + ctr.Params.Name
	}
	return "the call"
}
