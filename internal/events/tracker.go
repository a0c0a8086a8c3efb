package events

import (
	"context"
	"crypto/rand"
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// DefaultMaxQueued bounds the Tracker's queue when TrackerOptions.MaxQueued is zero.
const DefaultMaxQueued = 10_000

// TrackerOptions configures NewTracker. The zero value is a disabled tracker.
type TrackerOptions struct {
	// Enabled turns tracking on; when false every Track call is a no-op.
	Enabled bool
	// ServerID is stamped on every event (see ServerIDFromEnv).
	ServerID string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxQueued bounds the queue; past it the oldest events are dropped.
	// Zero means DefaultMaxQueued.
	MaxQueued int
	// Logger receives the warning about dropped events (logged by Drain, never
	// by Track); nil means no logging.
	Logger hclog.Logger
	// Durable receives the events of Record, one Emit per event, before Record
	// returns (the JSONL buffer: appended and fsynced). Nil means Record queues
	// like Track.
	Durable core.Sink
}

// Tracker is the in-memory event queue of spec 000 §10.1. It implements
// core.Tracker and is safe for concurrent use.
type Tracker struct {
	enabled  bool
	serverID string
	now      func() time.Time
	max      int
	logger   hclog.Logger
	durable  core.Sink

	mu      sync.Mutex
	queue   []core.Event
	dropped int // events dropped since the last Drain
}

var _ core.Recorder = (*Tracker)(nil)

// NewTracker returns a tracker configured by opts.
func NewTracker(opts TrackerOptions) *Tracker {
	t := &Tracker{
		enabled:  opts.Enabled,
		serverID: opts.ServerID,
		now:      opts.Now,
		max:      opts.MaxQueued,
		logger:   opts.Logger,
		durable:  opts.Durable,
	}
	if t.now == nil {
		t.now = time.Now
	}
	if t.max <= 0 {
		t.max = DefaultMaxQueued
	}
	if t.logger == nil {
		t.logger = hclog.NewNullLogger()
	}
	return t
}

// Enabled reports whether Track records events.
func (t *Tracker) Enabled() bool { return t.enabled }

// Track queues an event of eventType with a shallow copy of data, stamped with
// a new id, the current time and the server id. It never performs I/O; when
// the queue is full the oldest event is dropped and counted.
func (t *Tracker) Track(eventType string, data map[string]any) {
	if !t.enabled {
		return
	}
	t.enqueue(t.event(eventType, data))
}

// Record stores an event of eventType durably before it returns: it is
// appended to the Durable sink (fsynced), from which the publisher delivers
// it, by this process or the next one to start. When the durable write fails
// the event is queued like Track's and the error is returned: it is not on
// disk, and the caller must not say it is. An event the Durable sink refuses
// as larger than it can hold (core.ErrEventTooLarge) is not queued either: it
// is dropped and the error returned. Without a Durable sink Record is Track. A
// disabled tracker records nothing and returns nil.
func (t *Tracker) Record(ctx context.Context, eventType string, data map[string]any) error {
	if !t.enabled {
		return nil
	}
	ev := t.event(eventType, data)
	if t.durable == nil {
		t.enqueue(ev)
		return nil
	}
	if err := t.durable.Emit(ctx, []core.Event{ev}); err != nil {
		if !errors.Is(err, core.ErrEventTooLarge) {
			t.enqueue(ev)
		}
		return err
	}
	return nil
}

// NewEventID returns a new unique event id: 128 random bits as 26 base32
// characters.
func NewEventID() string { return rand.Text() }

// event builds an event with a new id, the current time and the server id.
func (t *Tracker) event(eventType string, data map[string]any) core.Event {
	payload := maps.Clone(data)
	if payload == nil {
		payload = map[string]any{}
	}
	return core.Event{
		ID:        NewEventID(),
		Type:      eventType,
		Timestamp: core.FormatTimestamp(t.now()),
		ServerID:  t.serverID,
		Data:      payload,
	}
}

// enqueue appends ev to the bounded queue, dropping the oldest when full.
func (t *Tracker) enqueue(ev core.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.queue) >= t.max {
		excess := len(t.queue) - t.max + 1
		clear(t.queue[:excess])
		t.queue = t.queue[excess:]
		t.dropped += excess
	}
	t.queue = append(t.queue, ev)
}

// Len returns how many events are queued.
func (t *Tracker) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.queue)
}

// Drain removes and returns every queued event, oldest first. If events were
// dropped because the queue was full, it logs one warning counting them.
func (t *Tracker) Drain() []core.Event {
	t.mu.Lock()
	events := t.queue
	dropped := t.dropped
	t.queue = nil
	t.dropped = 0
	t.mu.Unlock()
	if dropped > 0 {
		t.logger.Warn("analytics queue full: dropped oldest events", "dropped", dropped, "max_queued", t.max)
	}
	return events
}
