package otelsetup

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	coretel "github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// Values of error.type besides JSON-RPC error codes.
const (
	// ErrorTypeTool marks a tool result with isError set, as the conventions say.
	ErrorTypeTool = "tool_error"
	// ErrorTypeOther is an error that carries no JSON-RPC code.
	ErrorTypeOther = "_OTHER"
	// ErrorTypePanic is a handler that panicked (the server's recovery answers it).
	ErrorTypePanic = "panic"
)

// propagator reads traceparent and tracestate from params._meta.
var propagator = propagation.TraceContext{}

// Middleware returns the go-sdk receiving middleware that traces and times
// each request. Register it inside the middleware that rewrites tool results
// (internal/server does so for Options.Middleware), so it sees isError.
func (t *Telemetry) Middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			start := time.Now()
			r := t.describe(method, req)
			if meta := metaOf(req); len(meta) > 0 {
				ctx = propagator.Extract(ctx, metaCarrier(meta))
			}
			attrs := r.spanAttrs()
			if id := requestID(ctx); id != "" {
				attrs = append(attrs, semconv.JSONRPCRequestID(id))
			}
			ctx, span := t.tracer.Start(ctx, r.spanName(), trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
			t.watchSession(req, r)
			defer func() {
				if p := recover(); p != nil {
					r.errorType = ErrorTypePanic
					t.finish(ctx, span, r, start, errors.New("handler panicked"))
					panic(p)
				}
				t.finish(ctx, span, r, start, err)
			}()
			res, err = next(ctx, method, req)
			if err == nil {
				if ctr, ok := res.(*mcp.CallToolResult); ok && ctr != nil && ctr.IsError {
					r.errorType = ErrorTypeTool
				}
			}
			return res, err
		}
	}
}

// request is what the conventions record of one request.
type request struct {
	method, target  string
	tool, prompt    string
	resourceURI     string
	sessionID       string
	protocolVersion string
	errorType       string
	rpcStatus       string
	transport       string
	operationIsTool bool
	session         *mcp.ServerSession
}

func (t *Telemetry) describe(method string, req mcp.Request) *request {
	r := &request{method: method, transport: t.transport}
	switch q := req.(type) {
	case *mcp.CallToolRequest:
		if q.Params != nil {
			r.tool, r.target, r.operationIsTool = q.Params.Name, q.Params.Name, true
		}
	case *mcp.GetPromptRequest:
		if q.Params != nil {
			r.prompt, r.target = q.Params.Name, q.Params.Name
		}
	case *mcp.ReadResourceRequest:
		if q.Params != nil {
			r.resourceURI = q.Params.URI
		}
	}
	if v, ok := req.(interface{ ProtocolVersion() string }); ok {
		r.protocolVersion = v.ProtocolVersion()
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		r.session, r.sessionID = ss, ss.ID()
	}
	return r
}

// requestID is the JSON-RPC id the transport put in ctx, or "": the go-sdk
// gives middleware no id, and only stateless HTTP can tell it (see
// internal/httpguard.Options.RequestIDs).
func requestID(ctx context.Context) string { return coretel.RequestID(ctx) }

// spanName is "{mcp.method.name} {target}", or the method alone.
func (r *request) spanName() string {
	if r.target == "" {
		return r.method
	}
	return r.method + " " + r.target
}

func (r *request) spanAttrs() []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, semconv.McpMethodNameKey.String(r.method), semconv.NetworkTransportKey.String(r.transport))
	if r.transport == TransportTCP {
		attrs = append(attrs, semconv.NetworkProtocolName("http"))
	}
	if r.sessionID != "" {
		attrs = append(attrs, semconv.McpSessionID(r.sessionID))
	}
	if r.resourceURI != "" {
		attrs = append(attrs, semconv.McpResourceURI(r.resourceURI))
	}
	return append(attrs, r.commonAttrs()...)
}

// commonAttrs are the attributes the span and the operation histogram share.
func (r *request) commonAttrs() []attribute.KeyValue {
	var attrs []attribute.KeyValue
	if r.protocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(r.protocolVersion))
	}
	if r.operationIsTool {
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(r.tool))
	}
	if r.prompt != "" {
		attrs = append(attrs, semconv.GenAIPromptName(r.prompt))
	}
	return attrs
}

func (t *Telemetry) finish(ctx context.Context, span trace.Span, r *request, start time.Time, err error) {
	if err != nil && r.errorType == "" {
		r.errorType = ErrorTypeOther
		var jerr *jsonrpc.Error
		if errors.As(err, &jerr) {
			r.rpcStatus = strconv.FormatInt(jerr.Code, 10)
			r.errorType = r.rpcStatus
		}
	}
	attrs := append(r.commonAttrs(), semconv.NetworkTransportKey.String(r.transport))
	if r.errorType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(r.errorType))
		span.SetAttributes(semconv.ErrorTypeKey.String(r.errorType))
		msg := r.errorType
		if err != nil {
			msg = err.Error()
		}
		span.SetStatus(codes.Error, msg)
	}
	if r.rpcStatus != "" {
		attrs = append(attrs, semconv.RPCResponseStatusCode(r.rpcStatus))
		span.SetAttributes(semconv.RPCResponseStatusCode(r.rpcStatus))
	}
	span.End()
	t.operation.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr(r.method), attrs...)
}

// watchSession starts timing a session the first time one of its requests
// arrives, and records mcp.server.session.duration when it ends.
func (t *Telemetry) watchSession(req mcp.Request, r *request) {
	ss := r.session
	if ss == nil {
		return
	}
	if _, seen := t.sessions.LoadOrStore(ss, struct{}{}); seen {
		return
	}
	start := time.Now()
	attrs := []attribute.KeyValue{semconv.NetworkTransportKey.String(r.transport)}
	if r.protocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(r.protocolVersion))
	}
	go func() {
		err := ss.Wait()
		t.sessions.Delete(ss)
		if err != nil && !errors.Is(err, context.Canceled) {
			attrs = append(attrs, semconv.ErrorTypeKey.String(ErrorTypeOther))
		}
		t.session.Record(context.Background(), time.Since(start).Seconds(), attrs...)
	}()
}

// metaOf returns the request's params._meta, nil when there is none (a
// request without params holds a nil pointer the go-sdk's getters panic on).
func metaOf(req mcp.Request) (meta map[string]any) {
	defer func() {
		if recover() != nil {
			meta = nil
		}
	}()
	if p := req.GetParams(); p != nil {
		return p.GetMeta()
	}
	return nil
}

// metaCarrier reads W3C trace context fields out of params._meta.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
