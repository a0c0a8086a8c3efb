package core

import (
	"context"
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

// NopTracker discards every event; it is the tracker when analytics is disabled.
type NopTracker struct{}

// Track implements Tracker.
func (NopTracker) Track(string, map[string]any) {}
