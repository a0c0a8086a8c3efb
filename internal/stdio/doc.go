// Package stdio owns skills-mcp's stdio transport: LineTransport, a
// newline-delimited JSON-RPC mcp.Transport that answers a malformed line with
// a JSON-RPC error and keeps the session (the go-sdk's own stdio transport
// ends it), gives every request exactly one answer carrying its own id, and
// waits for the answers to requests already read when stdin ends. It also owns
// the request-id rule (CheckID) that the HTTP guards of internal/httpguard
// apply too, and the one-pass JSON decoding and encoding of the common messages.
// It knows nothing of skills: any go-sdk server can run on it.
package stdio
