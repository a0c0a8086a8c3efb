package httpguard

import "github.com/modelcontextprotocol/go-sdk/mcp"

// OverHTTP reports whether a request came through the HTTP transport: only
// that transport hands the request's headers to handlers.
func OverHTTP(extra *mcp.RequestExtra) bool { return extra != nil && extra.Header != nil }
