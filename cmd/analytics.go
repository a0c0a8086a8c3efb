package skillscmd

import (
	"context"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/events"
	httpsink "github.com/skills-mcp/skills-mcp/plugins/sink/http"
	"github.com/skills-mcp/skills-mcp/plugins/sink/jsonl"
	logsink "github.com/skills-mcp/skills-mcp/plugins/sink/log"
)

// sinkFactory builds a sink from the configuration.
type sinkFactory func(cfg core.Config, log hclog.Logger) core.Sink

// buildSinks registers the built-in sinks by name; a third party adds its own
// factory here in its own main.
func buildSinks() *core.Registry[sinkFactory] {
	reg := core.NewRegistry[sinkFactory]("sink")
	reg.Register(httpsink.Name, func(cfg core.Config, _ hclog.Logger) core.Sink {
		return httpsink.New(httpsink.Options{Endpoint: cfg.Analytics.Endpoint})
	})
	reg.Register(logsink.Name, func(_ core.Config, log hclog.Logger) core.Sink { return logsink.New(log) })
	return reg
}

// analytics is the tracker handed to the server and the publisher behind it.
type analytics struct {
	tracker   *events.Tracker
	publisher *events.Publisher
}

// startAnalytics wires §10: a tracker (a no-op when analytics is disabled) and,
// when enabled, a publisher that posts to the endpoint every 30 s and falls back
// to the JSONL buffer in the state directory. sinkName overrides the primary
// ("log" prints events to stderr for debugging).
func startAnalytics(ctx context.Context, cfg core.Config, stateDir, sinkName string, getenv func(string) string, log hclog.Logger) (*analytics, error) {
	a := &analytics{tracker: events.NewTracker(events.TrackerOptions{
		Enabled: cfg.Analytics.Enabled, ServerID: events.ServerIDFromEnv(getenv), Logger: log,
	})}
	if !cfg.Analytics.Enabled {
		return a, nil
	}
	var primary core.Sink
	if sinkName == "" && cfg.Analytics.Endpoint != "" {
		sinkName = httpsink.Name
	}
	if sinkName != "" {
		factory, err := buildSinks().Lookup(sinkName)
		if err != nil {
			return nil, usagef("analytics: %v", err)
		}
		primary = factory(cfg, log)
	}
	buffer := jsonl.New(filepath.Join(stateDir, "analytics-buffer.jsonl"),
		jsonl.WithMaxBytes(cfg.Analytics.MaxBufferBytes), jsonl.WithLogger(log))
	a.publisher = events.NewPublisher(events.PublisherOptions{Tracker: a.tracker, Primary: primary, Buffer: buffer, Logger: log})
	a.publisher.Start(ctx)
	return a, nil
}

// shutdownFlushTimeout bounds the final delivery attempt; events it cannot
// deliver in time are written to the buffer, so nothing is lost.
const shutdownFlushTimeout = 2 * time.Second

// close flushes what is queued (to the endpoint, else the buffer).
func (a *analytics) close(log hclog.Logger) {
	if a.publisher == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownFlushTimeout)
	defer cancel()
	if err := a.publisher.Close(ctx); err != nil {
		log.Warn("analytics: final delivery failed; events kept in the local buffer", "error", err)
	}
}
