// Package server owns the MCP binding of skills-mcp: one file per tool, the
// run_script validation cascade, the mapping of domain errors to tool results
// (`isError: true` with `{"error": true, "message": …}`), panic recovery, the
// slog→hclog bridge, and the
// Streamable HTTP endpoint with its guards (bearer token, DNS-rebinding Host and
// Origin checks, body limit, no run_script for remote callers unless allowed)
// and /healthz.
//
// The stdio transport is its own package, internal/stdio. This package
// reaches runners, matchers and sinks only through core interfaces.
package server
