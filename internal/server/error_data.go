package server

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/skillsext"
)

// methodResourcesRead is the method whose not-found error carries the URI.
const methodResourcesRead = "resources/read"

// validErrorData keeps every error answer encodable: a jsonrpc.Error whose
// Data is not valid JSON (the go-sdk's own resources/read not-found, for a
// URI that matches no template) is answered with the same code and message,
// and for resources/read with the URI encoded as JSON, other data dropped.
// Without it the answer failed to encode: stdio never answered and ended,
// HTTP answered empty 200s.
func validErrorData(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var wire *jsonrpc.Error
		if err == nil || !errors.As(err, &wire) || len(wire.Data) == 0 || json.Valid(wire.Data) {
			return res, err
		}
		if r, ok := req.(*mcp.ReadResourceRequest); ok && method == methodResourcesRead && r.Params != nil && wire.Message == "Resource not found" {
			return nil, skillsext.ResourceNotFound(r.Params.URI)
		}
		return nil, &jsonrpc.Error{Code: wire.Code, Message: wire.Message}
	}
}
