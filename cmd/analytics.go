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
)

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
	// Recorded events (report_usage's feedback) are appended and fsynced to
	// the buffer before the tool answers (issue 16, item 3).
	buffer := jsonl.New(filepath.Join(stateDir, "analytics-buffer.jsonl"),
		jsonl.WithMaxBytes(cfg.Analytics.MaxBufferBytes), jsonl.WithLogger(log))
	topts := events.TrackerOptions{Enabled: cfg.Analytics.Enabled, ServerID: events.ServerIDFromEnv(getenv), Logger: log}
	if cfg.Analytics.Enabled {
		topts.Durable = buffer
	}
	a := &analytics{tracker: events.NewTracker(topts)}
	// A name that names no sink stops start-up even with analytics off: a typo
	// must not wait for the day analytics is turned on.
	var plugin SinkPlugin
	if sinkName != "" {
		var err error
		if plugin, err = commandFrom(ctx).sinks.Lookup(sinkName); err != nil {
			return nil, usagef("analytics.sink / SKILLS_ANALYTICS_SINK: %w", err)
		}
	}
	if !cfg.Analytics.Enabled {
		return a, nil
	}
	if sinkName == "" && cfg.Analytics.Endpoint != "" {
		sinkName = httpsink.Name
		plugin, _ = commandFrom(ctx).sinks.Lookup(sinkName)
	}
	var primary core.Sink
	if plugin.New != nil {
		var err error
		primary, err = plugin.New(PluginContext{Config: cfg, Logger: log.Named(sinkName), StateDir: stateDir, Getenv: getenv})
		if err != nil {
			return nil, usagef("analytics: sink %s: %w", sinkName, err)
		}
	}
	a.publisher = events.NewPublisher(events.PublisherOptions{Tracker: a.tracker, Primary: primary, Buffer: buffer, Logger: log,
		Interval: time.Duration(cfg.Analytics.FlushIntervalSeconds) * time.Second})
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
