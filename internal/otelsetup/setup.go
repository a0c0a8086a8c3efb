package otelsetup

import (
	"context"
	"errors"
	"sync"

	"github.com/hashicorp/go-hclog"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/skills-mcp/skills-mcp/internal/otlpwire"
	coretel "github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// Network transports, the network.transport attribute of the conventions.
const (
	// TransportPipe is stdio.
	TransportPipe = "pipe"
	// TransportTCP is Streamable HTTP.
	TransportTCP = "tcp"
)

// Options configures Start.
type Options struct {
	// Getenv reads the OTEL_* environment (os.Getenv in the binary). The
	// SDK itself reads the process environment for OTEL_SERVICE_NAME,
	// OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_BSP_* and
	// OTEL_METRIC_EXPORT_*.
	Getenv func(string) string
	// Version is the service.version resource attribute.
	Version string
	// Transport is TransportPipe or TransportTCP.
	Transport string
	// Logger receives export errors (stderr).
	Logger hclog.Logger
}

// Telemetry is the tracer and the two MCP histograms behind the middleware.
type Telemetry struct {
	tracer    trace.Tracer
	operation mcpconv.ServerOperationDuration
	session   mcpconv.ServerSessionDuration
	transport string
	sessions  sync.Map // *mcp.ServerSession → struct{}: sessions whose end is awaited
	shutdown  []func(context.Context) error
}

// Start reads the environment (see Enabled) and, when it turns a signal on,
// builds the SDK providers with OTLP/HTTP exporters (internal/otlpwire,
// configured by OTEL_EXPORTER_OTLP_*): a batching span
// processor and a periodic metric reader, both tuned by the standard
// OTEL_BSP_* and OTEL_METRIC_EXPORT_* variables, and a resource from
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (service.name defaults to
// skills-mcp). With no signal on it returns nil, nil and builds nothing.
func Start(ctx context.Context, opts Options) (*Telemetry, error) {
	signals, err := Enabled(opts.Getenv)
	if err != nil || !signals.Any() {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("telemetry export failed", "error", err) }))
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("skills-mcp"), semconv.ServiceVersion(opts.Version)),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	)
	if err != nil {
		log.Warn("telemetry: part of the resource could not be read", "error", err)
	}
	var tp trace.TracerProvider = tracenoop.NewTracerProvider()
	var mp metric.MeterProvider = metricnoop.NewMeterProvider()
	var shutdown []func(context.Context) error
	if signals.Traces {
		c, err := otlpwire.NewClient(opts.Getenv, "traces")
		if err != nil {
			return nil, err
		}
		sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spanExporter{c}), sdktrace.WithResource(res))
		tp, shutdown = sdk, append(shutdown, sdk.Shutdown)
	}
	if signals.Metrics {
		c, err := otlpwire.NewClient(opts.Getenv, "metrics")
		if err != nil {
			return nil, errors.Join(err, shutdownAll(ctx, shutdown))
		}
		exp, err := newMetricExporter(opts.Getenv, c)
		if err != nil {
			return nil, errors.Join(err, shutdownAll(ctx, shutdown))
		}
		sdk := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
		mp, shutdown = sdk, append(shutdown, sdk.Shutdown)
	}
	t, err := New(tp, mp, opts.Transport)
	if err != nil {
		return nil, errors.Join(err, shutdownAll(ctx, shutdown))
	}
	t.shutdown = shutdown
	log.Info("telemetry on", "traces", signals.Traces, "metrics", signals.Metrics)
	return t, nil
}

// New returns telemetry over the given providers (tests and benchmarks pass
// in-process ones); Shutdown then leaves the providers to the caller.
func New(tp trace.TracerProvider, mp metric.MeterProvider, transport string) (*Telemetry, error) {
	meter := mp.Meter(coretel.ScopeName)
	op, err := mcpconv.NewServerOperationDuration(meter)
	if err != nil {
		return nil, err
	}
	sess, err := mcpconv.NewServerSessionDuration(meter)
	if err != nil {
		return nil, err
	}
	return &Telemetry{tracer: tp.Tracer(coretel.ScopeName), operation: op, session: sess, transport: transport}, nil
}

// Shutdown flushes what is pending to the collector and stops the exporters.
// Nil telemetry (off) has nothing to do.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return shutdownAll(ctx, t.shutdown)
}

func shutdownAll(ctx context.Context, fns []func(context.Context) error) error {
	var errs []error
	for _, fn := range fns {
		errs = append(errs, fn(ctx))
	}
	return errors.Join(errs...)
}
