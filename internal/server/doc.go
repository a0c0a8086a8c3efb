// Package server owns the MCP binding of skills-mcp: one file per tool (the
// run_script tool calls internal/scripts, which owns the §8.4 validation
// cascade and the run), the mapping of domain errors to tool results
// (`isError: true` with `{"error": true, "message": …}`), panic recovery, the
// slog→hclog bridge, no run_script for remote callers unless allowed, and
// /healthz's report.
//
// The stdio transport is its own package, internal/stdio; the Streamable
// HTTP endpoint and its guards are internal/httpguard, which HTTPHandler
// hands the go-sdk server to; the Skills extension (skill:// resources,
// skills/list, skills/get) is internal/skillsext, served on the same go-sdk
// server; paging cursors are internal/cursor. The collector policy around
// rebuilds is the process's: it comes in as Options.MemoryPolicy. This package
// reaches runners, matchers and sinks only through core interfaces.
package server
