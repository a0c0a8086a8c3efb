package skillscmd

import (
	"context"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
	httpsink "github.com/skills-mcp/skills-mcp/plugins/sink/http"
)

// analytics is the tracker handed to the server and the publisher behind it.
type analytics struct {
	tracker   *events.Tracker
	publisher *events.Publisher
}

// startAnalytics wires §10: a tracker (a no-op when analytics is disabled) and,
// when enabled, a publisher that posts to the endpoint every 30 s and falls back
// to the JSONL buffer in the state directory. SKILLS_ANALYTICS_SINK, else
// analytics.sink, names the primary ("log" prints events to stderr for
// debugging). With analytics on, one log line says where events go and what
// set it (issue 26, item 5).
func startAnalytics(ctx context.Context, app *app, loaded config.Loaded, stateDir string) (*analytics, error) {
	getenv, log := app.getenv, app.log.Named("analytics")
	cfg := loaded.Config
	sinkName, sinkFrom := getenv("SKILLS_ANALYTICS_SINK"), "SKILLS_ANALYTICS_SINK"
	if sinkName == "" {
		sinkName, sinkFrom = cfg.Analytics.Sink, loaded.Origin("analytics.sink")
	}
	// Recorded events (report_usage's feedback) are appended and fsynced to
	// the buffer before the tool answers (issue 16, item 3).
	bufferPath := filepath.Join(stateDir, "analytics-buffer.jsonl")
	buffer := eventbuf.New(bufferPath, eventbuf.WithMaxBytes(cfg.Analytics.MaxBufferBytes), eventbuf.WithLogger(log))
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
		if plugin, err = app.cmd.sinks.Lookup(sinkName); err != nil {
			return nil, usagef("analytics.sink / SKILLS_ANALYTICS_SINK: %w", err)
		}
	}
	if !cfg.Analytics.Enabled {
		return a, nil
	}
	if sinkName == "" && cfg.Analytics.Endpoint != "" {
		sinkName, sinkFrom = httpsink.Name, loaded.Origin("analytics.endpoint")
		plugin, _ = app.cmd.sinks.Lookup(sinkName)
	}
	var primary core.Sink
	if plugin.New != nil {
		var err error
		primary, err = plugin.New(pluginContext(&loaded, sinksSection+"."+sinkName, log.Named(sinkName), stateDir, getenv))
		if err != nil {
			return nil, usagef("analytics: sink %s: %w", sinkName, err)
		}
	}
	logDestination(log, loaded, sinkName, sinkFrom, primary, bufferPath)
	a.publisher = events.NewPublisher(events.PublisherOptions{Tracker: a.tracker, Primary: primary, Buffer: buffer, Logger: log,
		Interval: time.Duration(cfg.Analytics.FlushIntervalSeconds) * time.Second})
	a.publisher.Start(ctx)
	return a, nil
}

// logDestination says, once at start, that analytics is on, where events go
// and which file line or variable set each part: the operator sees an
// endpoint they did not choose.
func logDestination(log hclog.Logger, loaded config.Loaded, sinkName, sinkFrom string, primary core.Sink, bufferPath string) {
	enabledBy := loaded.Origin("analytics.enabled")
	if primary == nil {
		log.Info("analytics on: events kept in the local buffer only (no endpoint, no sink)", "enabled_by", enabledBy, "buffer", bufferPath)
		return
	}
	endpoint, endpointFrom := "(the "+sinkName+" sink)", sinkFrom
	if e, ok := primary.(interface{ Endpoint() string }); ok {
		endpoint = e.Endpoint()
		if sinkName == httpsink.Name {
			endpointFrom = loaded.Origin("analytics.endpoint")
		}
	}
	if o, ok := primary.(interface{ EndpointOrigin() string }); ok {
		endpointFrom = o.EndpointOrigin()
	}
	log.Info("analytics on: events are sent to "+endpoint, "sink", sinkName, "sink_set_by", sinkFrom,
		"endpoint", endpoint, "endpoint_set_by", endpointFrom, "enabled_by", enabledBy, "buffer", bufferPath)
}

// shutdownFlushTimeout bounds the final delivery attempt; events it cannot
// deliver in time are written to the buffer first, so nothing is lost.
const shutdownFlushTimeout = 2 * time.Second

// close writes what is queued to the buffer, then delivers what it can
// before deadline or shutdownFlushTimeout, whichever comes first.
func (a *analytics) close(deadline time.Time, log hclog.Logger) {
	if a.publisher == nil {
		return
	}
	ctx, cancel := context.WithDeadline(context.Background(), earliest(deadline, time.Now().Add(shutdownFlushTimeout)))
	defer cancel()
	if err := a.publisher.Close(ctx); err != nil {
		log.Warn("analytics: final delivery failed; events kept in the local buffer", "error", err)
	}
}

// earliest returns the earlier of a and b.
func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
