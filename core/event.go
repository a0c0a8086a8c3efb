package core

import (
	"context"
	"errors"
	"time"
)

// Event types of spec 000 §10.2.
const (
	EventNoMatch        = "no_match"
	EventAmbiguous      = "ambiguous"
	EventSkillServed    = "skill_served"
	EventAssetServed    = "asset_served"
	EventScriptExecuted = "script_executed"
	EventSkillFeedback  = "skill_feedback"
	EventRefresh        = "refresh"
)

// Event is one analytics event (spec 000 §10.1). Its JSON form is the wire format
// of §10.3 and the line format of the local buffer (§10.4).
type Event struct {
	// ID identifies the event uniquely (26 random base32 characters): it is
	// given once, when the event is tracked, and every delivery attempt sends
	// the same id, so an endpoint that got an event twice (a retry after a
	// late answer, a crash between delivery and clearing the buffer) can tell
	// (issue 16, items 2 and 4). An extension of spec 000 §10.1.
	ID string `json:"id,omitempty"`
	// Type is one of the Event* constants.
	Type string `json:"type"`
	// Timestamp is ISO 8601 UTC with milliseconds (2026-02-18T14:30:00.000Z).
	Timestamp string `json:"timestamp"`
	// ServerID is "dev-{USER}" (or USERNAME).
	ServerID string `json:"server_id"`
	// Data is the event-specific payload of §10.2.
	Data map[string]any `json:"data"`
}

// TimestampLayout formats Event.Timestamp like JavaScript's Date.toISOString.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// FormatTimestamp renders t in TimestampLayout (UTC).
func FormatTimestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// Sink delivers batches of events somewhere (HTTP endpoint, JSONL file, log).
// Sinks live under plugins/sink/ and are registered by name.
type Sink interface {
	// Emit delivers events; an error means none of them may be assumed delivered.
	Emit(ctx context.Context, events []Event) error
	// Close releases the sink's resources.
	Close(ctx context.Context) error
}

// Tracker records events from tool handlers (spec 000 §10.1). Track must not block
// on I/O: delivery happens elsewhere.
type Tracker interface {
	Track(eventType string, data map[string]any)
}

// Recorder is a Tracker that can also record an event durably: Record returns
// once the event is on disk (fsynced), so that a tool may acknowledge it and a
// crash right after the answer loses nothing (issue 16, item 3). Record does
// I/O; Track stays the non-blocking path for events nobody acknowledges.
type Recorder interface {
	Tracker
	Record(ctx context.Context, eventType string, data map[string]any) error
}

// ErrEventTooLarge: an event is larger than the whole analytics buffer
// (analytics.max_buffer_bytes), so it cannot be kept; a Recorder refuses it
// rather than acknowledge it (issue 26, item 10).
var ErrEventTooLarge = errors.New("event larger than the analytics buffer")

// NopTracker discards every event; it is the tracker when analytics is disabled.
type NopTracker struct{}

// Track implements Tracker.
func (NopTracker) Track(string, map[string]any) {}
