package log

import (
	"context"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// Name is the sink's name in the sink registry.
const Name = "log"

// sink logs events. It is safe for concurrent use.
type sink struct {
	logger hclog.Logger
}

var _ core.Sink = (*sink)(nil)

// New returns a sink logging to logger; nil means hclog.NewNullLogger().
func New(logger hclog.Logger) core.Sink {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &sink{logger: logger}
}

// Emit logs each event at Info with its type, timestamp, server id and data.
func (s *sink) Emit(_ context.Context, events []core.Event) error {
	for _, ev := range events {
		s.logger.Info("analytics event", "type", ev.Type, "timestamp", ev.Timestamp, "server_id", ev.ServerID, "data", ev.Data)
	}
	return nil
}

// Close implements core.Sink; there is nothing to release.
func (s *sink) Close(context.Context) error { return nil }
