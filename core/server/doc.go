// Package server owns the MCP binding of skills-mcp: one file per tool, the
// run_script validation cascade, the mapping of domain errors to tool results
// (`isError: true` with `{"error": true, "message": …}`), panic recovery, the
// slog→hclog bridge, and a stdio connection that survives malformed frames.
//
// It reaches runners, matchers and sinks only through core interfaces.
package server
