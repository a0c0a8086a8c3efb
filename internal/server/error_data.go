package server

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// methodResourcesRead is the method whose not-found error carries the URI.
const methodResourcesRead = "resources/read"

// resourceNotFound is the go-sdk's mcp.ResourceNotFoundError (-32602, as
// the MCP specification asks) with its data encoded as JSON: the go-sdk builds {"uri": …} with Go's %q, whose escapes
// (\x01, \v, \U000e0001) JSON does not accept, and an answer that cannot be
// encoded ended the session (docs/UPSTREAM.md).
func resourceNotFound(uri string) error {
	data, err := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	if err != nil { // a string always marshals; keep the answer encodable anyway
		data = nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}

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
			return nil, resourceNotFound(r.Params.URI)
		}
		return nil, &jsonrpc.Error{Code: wire.Code, Message: wire.Message}
	}
}
