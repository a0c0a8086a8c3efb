package skillscmd

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/otelsetup"
)

// telemetryFlushTimeout bounds the final export of spans and metrics at
// shutdown; the exit budget (stopClock) may leave it less.
const telemetryFlushTimeout = 5 * time.Second

// startTelemetry turns OpenTelemetry on when the OTEL_* environment asks for
// it (internal/otelsetup.Enabled). It returns the middleware for
// server.Options (none when off) and the shutdown that flushes the exporters
// until deadline at the latest: a collector that never answers costs the
// exit what is left of its budget, never more (issue 26, item 6).
func startTelemetry(ctx context.Context, getenv func(string) string, httpMode bool, log hclog.Logger) ([]mcp.Middleware, func(deadline time.Time), error) {
	transport := otelsetup.TransportPipe
	if httpMode {
		transport = otelsetup.TransportTCP
	}
	t, err := otelsetup.Start(ctx, otelsetup.Options{Getenv: getenv, Version: version, Transport: transport, Logger: log})
	if err != nil {
		return nil, nil, usagef("telemetry (OTEL_*): %w", err)
	}
	if t == nil {
		return nil, func(time.Time) {}, nil
	}
	shutdown := func(deadline time.Time) {
		ctx, cancel := context.WithDeadline(context.Background(), earliest(deadline, time.Now().Add(telemetryFlushTimeout)))
		defer cancel()
		if err := t.Shutdown(ctx); err != nil {
			log.Warn("telemetry: final export failed; spans and metrics since the last export are dropped", "error", err)
		}
	}
	return []mcp.Middleware{t.Middleware()}, shutdown, nil
}
