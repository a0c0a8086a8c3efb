package otelsetup

import (
	"context"
	"fmt"
	"strings"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/skills-mcp/skills-mcp/internal/otlpwire"
)

// spanExporter posts spans over OTLP/HTTP (internal/otlpwire says why not
// the OpenTelemetry exporter).
type spanExporter struct{ c *otlpwire.Client }

func (e spanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	return e.c.Post(ctx, otlpwire.Spans(spans))
}

func (e spanExporter) Shutdown(context.Context) error { e.c.Close(); return nil }

// metricExporter posts metrics over OTLP/HTTP, cumulative unless
// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE says delta.
type metricExporter struct {
	c     *otlpwire.Client
	delta bool
}

func newMetricExporter(getenv func(string) string, c *otlpwire.Client) (metricExporter, error) {
	switch v := strings.ToLower(strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"))); v {
	case "", "cumulative":
		return metricExporter{c: c}, nil
	case "delta":
		return metricExporter{c: c, delta: true}, nil
	default:
		return metricExporter{}, fmt.Errorf("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=%s: want cumulative or delta", v)
	}
}

func (e metricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	if e.delta {
		return metricdata.DeltaTemporality
	}
	return sdkmetric.DefaultTemporalitySelector(k)
}

func (e metricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

func (e metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	return e.c.Post(ctx, otlpwire.Metrics(rm))
}

func (e metricExporter) ForceFlush(context.Context) error { return nil }

func (e metricExporter) Shutdown(context.Context) error { e.c.Close(); return nil }
