// Package otelsetup is skills-mcp's OpenTelemetry: traces and metrics of the
// MCP requests it serves, by the OpenTelemetry semantic conventions for MCP,
// exported over OTLP/HTTP. It lives here, in internal/otelsetup, because it is
// what brings in the OpenTelemetry SDK and exporters; core code only starts
// child spans through internal/telemetry, which uses the API alone.
//
// Only the standard OTEL_* environment configures it (see Enabled and Start).
// With none of it set, Start returns nil and nothing is wired: no provider,
// exporter, goroutine or middleware exists, and a request costs what it cost
// before (BenchmarkMiddleware in this package and `make bench` show it).
//
// When on, every MCP request gets one server span named
// "{mcp.method.name} {target}" (target: the tool or prompt name, when there
// is one), a child of the trace context the client put in params._meta
// (traceparent, tracestate) when it did, and a point in the
// mcp.server.operation.duration histogram; each session's length goes to
// mcp.server.session.duration. Script runs, index searches and git syncs
// are child spans (internal/telemetry.Start).
package otelsetup
