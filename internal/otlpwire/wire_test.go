package otlpwire_test

import (
	"context"
	"encoding/hex"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/skills-mcp/skills-mcp/internal/otlptest"
	"github.com/skills-mcp/skills-mcp/internal/otlpwire"
)

// TestSpans decodes what Spans writes with the official generated types.
func TestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "wire-test"))))
	tr := tp.Tracer("scope-a", trace.WithInstrumentationVersion("1.0"))
	remote := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5}, TraceFlags: trace.FlagsSampled, Remote: true})
	ctx, parent := tr.Start(trace.ContextWithRemoteSpanContext(context.Background(), remote), "parent", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("s", ""), attribute.Bool("b", false), attribute.Int64("i", -7), attribute.Float64("f", 0.5),
			attribute.StringSlice("ss", []string{"x", "y"}), attribute.Int64Slice("is", []int64{1, 2})))
	_, child := tp.Tracer("scope-b").Start(ctx, "child", trace.WithLinks(trace.Link{SpanContext: remote, Attributes: []attribute.KeyValue{attribute.String("why", "link")}}))
	child.AddEvent("evt", trace.WithAttributes(attribute.Int("n", 3)))
	child.SetStatus(codes.Error, "boom")
	child.End()
	parent.SetStatus(codes.Ok, "")
	parent.End()

	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(otlpwire.Spans(rec.Ended()), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.ResourceSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans) != 2 {
		t.Fatalf("want one resource with two scopes, got %v", &req)
	}
	if got := otlptest.Attrs(req.ResourceSpans[0].Resource.Attributes)["service.name"]; got != "wire-test" {
		t.Errorf("service.name %q", got)
	}
	spans := map[string]*tracepb.Span{}
	scopes := map[string]string{}
	for _, ss := range req.ResourceSpans[0].ScopeSpans {
		for _, sp := range ss.Spans {
			spans[sp.Name] = sp
			scopes[sp.Name] = ss.Scope.Name + "@" + ss.Scope.Version
		}
	}
	p, c := spans["parent"], spans["child"]
	if p == nil || c == nil {
		t.Fatalf("spans: %v", spans)
	}
	if scopes["parent"] != "scope-a@1.0" || scopes["child"] != "scope-b@" {
		t.Errorf("scopes %v", scopes)
	}
	if hex.EncodeToString(p.TraceId) != "01020300000000000000000000000000" || hex.EncodeToString(p.ParentSpanId) != "0405000000000000" {
		t.Errorf("parent ids: trace %x parent %x", p.TraceId, p.ParentSpanId)
	}
	if p.Flags&0x300 != 0x300 || c.Flags&0x300 != 0x100 || p.Flags&0xff != 1 {
		t.Errorf("flags: parent %#x (want sampled, remote parent) child %#x (want local parent)", p.Flags, c.Flags)
	}
	if string(c.ParentSpanId) != string(p.SpanId) || string(c.TraceId) != string(p.TraceId) {
		t.Error("child not parented to parent")
	}
	if p.Kind != tracepb.Span_SPAN_KIND_SERVER || c.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
		t.Errorf("kinds %v %v", p.Kind, c.Kind)
	}
	if p.Status.GetCode() != tracepb.Status_STATUS_CODE_OK || c.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || c.Status.Message != "boom" {
		t.Errorf("statuses %v %v", p.Status, c.Status)
	}
	if p.EndTimeUnixNano < p.StartTimeUnixNano || p.StartTimeUnixNano == 0 {
		t.Errorf("times %d %d", p.StartTimeUnixNano, p.EndTimeUnixNano)
	}
	attrs := map[string]any{}
	for _, kv := range p.Attributes {
		attrs[kv.Key] = otlptest.Any(kv.Value)
	}
	for k, want := range map[string]any{"s": "", "b": false, "i": int64(-7), "f": 0.5} {
		if attrs[k] != want {
			t.Errorf("attribute %s = %#v, want %#v", k, attrs[k], want)
		}
	}
	if ss, _ := attrs["ss"].([]any); !slices.Equal(ss, []any{"x", "y"}) {
		t.Errorf("ss = %#v", attrs["ss"])
	}
	if len(c.Events) != 1 || c.Events[0].Name != "evt" || otlptest.Attrs(c.Events[0].Attributes)["n"] != "3" {
		t.Errorf("events %v", c.Events)
	}
	if len(c.Links) != 1 || hex.EncodeToString(c.Links[0].SpanId) != "0405000000000000" || otlptest.Attrs(c.Links[0].Attributes)["why"] != "link" {
		t.Errorf("links %v", c.Links)
	}
}

// TestMetrics decodes a histogram, a counter and a gauge.
func TestMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	m := mp.Meter("scope")
	h, _ := m.Float64Histogram("h", metric.WithUnit("s"))
	h.Record(context.Background(), 0.003)
	h.Record(context.Background(), 2)
	ctr, _ := m.Int64Counter("c")
	ctr.Add(context.Background(), 5)
	g, _ := m.Float64Gauge("g")
	g.Record(context.Background(), -1.5)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var req colmetrics.ExportMetricsServiceRequest
	if err := proto.Unmarshal(otlpwire.Metrics(&rm), &req); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, sm := range req.ResourceMetrics[0].ScopeMetrics {
		for _, mt := range sm.Metrics {
			got[mt.Name] = true
			switch mt.Name {
			case "h":
				dp := mt.GetHistogram().DataPoints[0]
				if mt.Unit != "s" || dp.Count != 2 || dp.GetSum() != 2.003 || dp.GetMin() != 0.003 || dp.GetMax() != 2 || len(dp.BucketCounts) != len(dp.ExplicitBounds)+1 {
					t.Errorf("histogram %v", mt)
				}
				if mt.GetHistogram().AggregationTemporality != 2 {
					t.Errorf("temporality %v, want cumulative", mt.GetHistogram().AggregationTemporality)
				}
			case "c":
				if s := mt.GetSum(); !s.IsMonotonic || s.DataPoints[0].GetAsInt() != 5 {
					t.Errorf("sum %v", mt)
				}
			case "g":
				if mt.GetGauge().DataPoints[0].GetAsDouble() != -1.5 {
					t.Errorf("gauge %v", mt)
				}
			}
		}
	}
	if !got["h"] || !got["c"] || !got["g"] {
		t.Errorf("metrics received: %v", got)
	}
}

// TestLogs round-trips every kind of value the analytics data may hold.
func TestLogs(t *testing.T) {
	at := time.Date(2026, 2, 18, 14, 30, 0, 0, time.UTC)
	values := map[string]any{
		"string": "line 1\nline 2 🚀", "empty": "", "true": true, "false": false, "int": 42, "zero": 0, "neg": int64(-3),
		"float": 1.5, "nil": nil, "list": []any{1.5, "x", nil, true}, "strings": []string{"a", "b"},
		"map": map[string]any{"k": []any{map[string]any{"deep": "yes"}}}, "bytes": []byte{0, 1},
	}
	var attrs []otlpwire.KeyValue
	for k, v := range values {
		attrs = append(attrs, otlpwire.KeyValue{Key: k, Value: v})
	}
	body := otlpwire.Logs([]otlpwire.KeyValue{{Key: "service.name", Value: "x"}}, "scope", "v1",
		[]otlpwire.LogRecord{{Time: at, EventName: "ev", Attributes: attrs}}, at.Add(time.Second))
	var req collogs.ExportLogsServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	lr := req.ResourceLogs[0].ScopeLogs[0].LogRecords[0]
	if lr.EventName != "ev" || lr.TimeUnixNano != uint64(at.UnixNano()) || lr.ObservedTimeUnixNano != uint64(at.Add(time.Second).UnixNano()) {
		t.Errorf("record %v", lr)
	}
	want := map[string]any{
		"string": "line 1\nline 2 🚀", "empty": "", "true": true, "false": false, "int": int64(42), "zero": int64(0), "neg": int64(-3),
		"float": 1.5, "nil": nil,
	}
	got := map[string]any{}
	for _, kv := range lr.Attributes {
		got[kv.Key] = otlptest.Any(kv.Value)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %#v, want %#v", k, got[k], w)
		}
	}
	if l, _ := got["list"].([]any); len(l) != 4 || l[0] != 1.5 || l[1] != "x" || l[2] != nil || l[3] != true {
		t.Errorf("list = %#v", got["list"])
	}
	if m, _ := got["map"].(map[string]any); m == nil {
		t.Errorf("map = %#v", got["map"])
	} else if inner, _ := m["k"].([]any); len(inner) != 1 || inner[0].(map[string]any)["deep"] != "yes" {
		t.Errorf("map = %#v", got["map"])
	}
	if b, _ := got["bytes"].([]byte); len(b) != 2 {
		t.Errorf("bytes = %#v", got["bytes"])
	}
}

// FuzzLogs: any key and value strings encode into a request the official
// decoder reads back unchanged (valid UTF-8 only: protobuf strings are UTF-8).
func FuzzLogs(f *testing.F) {
	f.Add("skill_path", "ops/deploy", "skill_served")
	f.Add("", "", "")
	f.Add("k\x00", "\u2028\"\\", "e")
	f.Fuzz(func(t *testing.T, key, value, event string) {
		body := otlpwire.Logs(nil, "s", "", []otlpwire.LogRecord{{EventName: event, Attributes: []otlpwire.KeyValue{{Key: key, Value: value}}}}, time.Time{})
		var req collogs.ExportLogsServiceRequest
		err := proto.Unmarshal(body, &req)
		if !utf8.ValidString(key) || !utf8.ValidString(value) || !utf8.ValidString(event) {
			return // protobuf refuses invalid UTF-8 in strings; the sink only sends JSON-decoded text
		}
		if err != nil {
			t.Fatal(err)
		}
		lr := req.ResourceLogs[0].ScopeLogs[0].LogRecords[0]
		if lr.EventName != event || lr.Attributes[0].Key != key || otlptest.Any(lr.Attributes[0].Value) != value {
			t.Errorf("round trip: %q %q %q → %v", key, value, event, lr)
		}
	})
}
