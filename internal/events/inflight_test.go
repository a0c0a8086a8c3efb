package events_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
)

// takingSink is an endpoint that has taken a batch as soon as Emit is
// called, and answers when the test releases it; a cancelled context makes
// it answer with an error although it kept the batch (a request the server
// received, whose answer the client stopped waiting for).
type takingSink struct {
	mu       sync.Mutex
	got      []core.Event
	started  chan struct{}
	release  chan struct{}
	canceled bool
	once     sync.Once
}

func (s *takingSink) Emit(ctx context.Context, evs []core.Event) error {
	s.mu.Lock()
	s.got = append(s.got, evs...)
	s.mu.Unlock()
	s.once.Do(func() { close(s.started) })
	select {
	case <-s.release:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		s.canceled = true
		s.mu.Unlock()
		return ctx.Err()
	}
}

func (s *takingSink) Close(context.Context) error { return nil }

// A flush in flight when the server stops is let finish: cancelling it made
// the publisher keep a batch the endpoint had already taken, and deliver it
// a second time at Close (seen under load as 44 events for 25 in sinktest's
// ShutdownFlush with the OTLP sink).
func TestCloseLetsTheFlushInFlightFinish(t *testing.T) {
	t.Parallel()
	sink := &takingSink{started: make(chan struct{}), release: make(chan struct{})}
	tracker := events.NewTracker(events.TrackerOptions{Enabled: true, ServerID: "dev-inflight"})
	const n = 10
	for i := range n {
		tracker.Track(core.EventSkillServed, map[string]any{"seq": i})
	}
	buffer := eventbuf.New(filepath.Join(t.TempDir(), "buffer.jsonl"))
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tracker, Primary: sink, Buffer: buffer})
	pub.Start(context.Background()) // its first flush takes the n events and waits in the sink
	<-sink.started

	closed := make(chan error, 1)
	go func() { closed <- pub.Close(context.Background()) }()
	time.Sleep(100 * time.Millisecond) // Close is waiting now (the old Close cancelled at once)
	close(sink.release)
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if sink.canceled {
		t.Error("Close cancelled the flush in flight")
	}
	if len(sink.got) != n {
		t.Errorf("the endpoint got %d events, want %d, each once", len(sink.got), n)
	}
	if left, err := buffer.ReadAll(context.Background()); err != nil || len(left) != 0 {
		t.Errorf("buffer holds %d events (%v), want none", len(left), err)
	}
}
