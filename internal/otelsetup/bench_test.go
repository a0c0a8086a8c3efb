package otelsetup_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/skills-mcp/skills-mcp/internal/otelsetup"
	coretel "github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// discard is an in-process span exporter that drops what it is given.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkTelemetry times a get_skill call at 100 skills through a go-sdk
// session on the in-memory transport: "off" is the server as the binary
// builds it with no OTEL_* set (no middleware), "on" has the middleware with
// the SDK's batching span processor (in-process exporter) and a metric
// reader, as OTEL_EXPORTER_OTLP_ENDPOINT would.
func BenchmarkTelemetry(b *testing.B) {
	c := loadCorpus(b, 100)
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			var mw []mcp.Middleware
			if mode == "on" {
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
				mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
				b.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
				tel, err := otelsetup.New(tp, mp, otelsetup.TransportPipe)
				if err != nil {
					b.Fatal(err)
				}
				mw = append(mw, tel.Middleware())
			}
			cs := c.connect(b, mw...)
			params := &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": c.single}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
					b.Fatalf("get_skill: %v %+v", err, res)
				}
			}
		})
	}
}

// BenchmarkChildSpanOff is the cost, with telemetry off, of each child span
// left in a handler (internal/otelsetup.Start and End with no recording span).
func BenchmarkChildSpanOff(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, span := coretel.Start(ctx, coretel.SpanIndexSearch)
		span.End()
	}
}
