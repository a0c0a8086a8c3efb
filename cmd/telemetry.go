package skillscmd

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/plugins/telemetry"
)

// telemetryFlushTimeout bounds the final export of spans and metrics at shutdown.
const telemetryFlushTimeout = 5 * time.Second

// startTelemetry turns OpenTelemetry on when the OTEL_* environment asks for
// it (plugins/telemetry.Enabled). It returns the middleware for
// server.Options (none when off) and the shutdown that flushes the exporters.
func startTelemetry(ctx context.Context, getenv func(string) string, httpMode bool, log hclog.Logger) ([]mcp.Middleware, func(), error) {
	transport := telemetry.TransportPipe
	if httpMode {
		transport = telemetry.TransportTCP
	}
	t, err := telemetry.Start(ctx, telemetry.Options{Getenv: getenv, Version: version, Transport: transport, Logger: log})
	if err != nil {
		return nil, nil, usagef("telemetry (OTEL_*): %w", err)
	}
	if t == nil {
		return nil, func() {}, nil
	}
	shutdown := func() {
		ctx, cancel := context.WithTimeout(context.Background(), telemetryFlushTimeout)
		defer cancel()
		if err := t.Shutdown(ctx); err != nil {
			log.Warn("telemetry: final export failed", "error", err)
		}
	}
	return []mcp.Middleware{t.Middleware()}, shutdown, nil
}
