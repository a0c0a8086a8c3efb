package events_test

import (
	"context"
	"fmt"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/events"
)

// printSink is a third-party sink: it prints each event. A real one might
// write to a queue or a database.
type printSink struct{}

var _ core.Sink = printSink{}

func (printSink) Emit(_ context.Context, evs []core.Event) error {
	for _, e := range evs {
		fmt.Println(e.Type, e.ServerID, e.Data["skill_path"])
	}
	return nil
}

func (printSink) Close(context.Context) error { return nil }

// A third party adds a sink by implementing core.Sink and handing it to the
// publisher as its primary (cmd/skillscmd registers the built-in http, jsonl,
// log and otlp sinks by name the same way; a custom build adds its own through
// skillscmd.Options.Sinks).
func Example_customSink() {
	tracker := events.NewTracker(events.TrackerOptions{
		Enabled: true, ServerID: "dev-alice",
		Now: func() time.Time { return time.Date(2026, 2, 18, 14, 30, 0, 0, time.UTC) },
	})
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tracker, Primary: printSink{}})
	tracker.Track(core.EventSkillServed, map[string]any{"skill_path": "ui/react/auth"})
	tracker.Track(core.EventAssetServed, map[string]any{"skill_path": "ui/react/auth"})
	if err := pub.Flush(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// skill_served dev-alice ui/react/auth
	// asset_served dev-alice ui/react/auth
}
