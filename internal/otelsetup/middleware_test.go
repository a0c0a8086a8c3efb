package otelsetup_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/skills-mcp/skills-mcp/internal/otelsetup"
)

// traced is telemetry over in-process providers whose output a test reads.
type traced struct {
	tel    *otelsetup.Telemetry
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
}

func newTraced(t testing.TB) traced {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tel, err := otelsetup.New(tp, mp, otelsetup.TransportPipe)
	if err != nil {
		t.Fatal(err)
	}
	return traced{tel: tel, spans: rec, reader: reader}
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// TestSpans holds the conventions' span name and attributes for each kind
// of outcome: a result, a tool error (isError), a JSON-RPC error, and a
// method without a target.
func TestSpans(t *testing.T) {
	c := loadCorpus(t, 100)
	tests := []struct {
		name       string
		call       func(ctx context.Context, cs *mcp.ClientSession) error
		spanName   string
		want       map[string]string
		wantAbsent []string
	}{
		{"tool result", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": c.single}})
			return err
		}, "tools/call get_skill", map[string]string{
			"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_skill", "gen_ai.operation.name": "execute_tool",
			"network.transport": "pipe", "mcp.protocol.version": "*",
		}, []string{"error.type", "mcp.session.id", "network.protocol.name"}},
		{"tool error", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "x", "skill_path": "no/such/skill"}})
			return err
		}, "tools/call get_skill", map[string]string{"error.type": "tool_error"}, nil},
		{"JSON-RPC error", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			return nil
		}, "tools/call no_such_tool", map[string]string{"error.type": "-32602", "rpc.response.status_code": "-32602", "gen_ai.tool.name": "no_such_tool"}, nil},
		{"no target", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.ListTools(ctx, nil)
			return err
		}, "tools/list", map[string]string{"mcp.method.name": "tools/list"}, []string{"gen_ai.tool.name", "error.type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTraced(t)
			cs := c.connect(t, tr.tel.Middleware())
			if err := tt.call(context.Background(), cs); err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, sp := range tr.spans.Ended() {
				if sp.Name() != tt.spanName {
					continue
				}
				found = true
				if sp.SpanKind() != trace.SpanKindServer {
					t.Errorf("kind %v, want server", sp.SpanKind())
				}
				got := attrMap(sp.Attributes())
				for k, v := range tt.want {
					if v == "*" && got[k] != "" {
						continue
					}
					if got[k] != v {
						t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
					}
				}
				for _, k := range tt.wantAbsent {
					if _, ok := got[k]; ok {
						t.Errorf("%s set (%q), want it absent", k, got[k])
					}
				}
			}
			if !found {
				var names []string
				for _, sp := range tr.spans.Ended() {
					names = append(names, sp.Name())
				}
				t.Fatalf("no span %q among %v", tt.spanName, names)
			}
		})
	}
}

// TestTraceContextFromMeta: the span continues the trace in params._meta.
func TestTraceContextFromMeta(t *testing.T) {
	c := loadCorpus(t, 100)
	tr := newTraced(t)
	cs := c.connect(t, tr.tel.Middleware())
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Meta: mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "vendor=x"},
		Name: "get_skill", Arguments: map[string]any{"context": c.single},
	})
	if err != nil {
		t.Fatal(err)
	}
	var call, search sdktrace.ReadOnlySpan
	for _, sp := range tr.spans.Ended() {
		switch sp.Name() {
		case "tools/call get_skill":
			call = sp
		case "skills.index.search":
			search = sp
		}
	}
	if call == nil || search == nil {
		t.Fatalf("want a call span and a search span, got %v and %v", call, search)
	}
	if got := call.Parent().TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %s, want the client's", got)
	}
	if got := call.Parent().SpanID().String(); got != "00f067aa0ba902b7" || !call.Parent().IsRemote() {
		t.Errorf("parent %s (remote %v), want the client's 00f067aa0ba902b7, remote", got, call.Parent().IsRemote())
	}
	if got := call.SpanContext().TraceState().Get("vendor"); got != "x" {
		t.Errorf("tracestate vendor=%q, want x", got)
	}
	if search.Parent().SpanID() != call.SpanContext().SpanID() {
		t.Errorf("the search span is not a child of the call span")
	}
}

// TestHistograms: each request is a point of mcp.server.operation.duration;
// a closed session is one of mcp.server.session.duration.
func TestHistograms(t *testing.T) {
	c := loadCorpus(t, 100)
	tr := newTraced(t)
	cs := c.connect(t, tr.tel.Middleware())
	for range 3 {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": c.single}}); err != nil {
			t.Fatal(err)
		}
	}
	_ = cs.Close()
	counts := map[string]uint64{}
	// The session's end is recorded by a goroutine waiting for it: collect
	// until it shows (the test's own deadline bounds the wait).
	for counts["mcp.server.session.duration"] == 0 {
		var rm metricdata.ResourceMetrics
		if err := tr.reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		clear(counts)
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				h, ok := m.Data.(metricdata.Histogram[float64])
				if !ok {
					t.Fatalf("%s is %T, want a float histogram", m.Name, m.Data)
				}
				for _, dp := range h.DataPoints {
					if v, _ := dp.Attributes.Value("gen_ai.tool.name"); m.Name == "mcp.server.session.duration" || v.AsString() == "get_skill" {
						counts[m.Name] += dp.Count
					}
				}
			}
		}
	}
	if counts["mcp.server.operation.duration"] != 3 {
		t.Errorf("operation points for get_skill: %d, want 3", counts["mcp.server.operation.duration"])
	}
	if counts["mcp.server.session.duration"] != 1 {
		t.Errorf("session points: %d, want 1", counts["mcp.server.session.duration"])
	}
}
