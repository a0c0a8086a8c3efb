// Package telemetry is the part of tracing that core code calls: child spans
// where a request's time goes (index search, script run, git sync). It uses
// only the OpenTelemetry API: the SDK, the exporters and the MCP middleware
// that makes the request spans live in internal/otelsetup, which is wired in
// only when the OTEL_* environment turns telemetry on.
//
// When no recording span is in the context (telemetry off, or a request not
// sampled) Start returns the context as it is and a span whose methods do
// nothing: one context lookup, no allocation.
package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of every span and metric of skills-mcp.
const ScopeName = "github.com/skills-mcp/skills-mcp"

// Span names of the child spans.
const (
	SpanIndexSearch = "skills.index.search"
	SpanScriptRun   = "skills.script.run"
	SpanGitSync     = "skills.git.sync"
)

// Start starts a span named name as a child of the recording span in ctx. Without
// one it returns ctx and that non-recording span, so End and the rest cost
// nothing. Attributes are set by the caller under span.IsRecording(): built
// unconditionally, their slice would be allocated even with telemetry off.
func Start(ctx context.Context, name string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, parent
	}
	return parent.TracerProvider().Tracer(ScopeName).Start(ctx, name)
}

// Attribute keys of the child spans.
const (
	AttrSkillPath  = attribute.Key("skills.skill_path")
	AttrScriptFile = attribute.Key("skills.script.file")
	AttrExitCode   = attribute.Key("skills.script.exit_code")
	AttrCommit     = attribute.Key("skills.git.commit")
)

// End ends span, recording err (when not nil) as its error status.
func End(span trace.Span, err error) {
	if err != nil && span.IsRecording() {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// requestIDKey carries the JSON-RPC id of the request a context serves.
type requestIDKey struct{}

// WithRequestID returns ctx carrying the JSON-RPC id of its request, as
// jsonrpc.request.id renders it ("1", "abc"). The go-sdk does not hand its
// middleware the id, so a transport that knows it puts it here.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the id WithRequestID put in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
