package sinktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
)

// Harness gives the suite a fresh sink per subtest and reads back what it
// delivered.
type Harness struct {
	// New returns a new sink for t, delivering somewhere only it uses.
	New func(t *testing.T) core.Sink
	// Delivered returns every event the sink returned from, in delivery order.
	// The suite calls it after Emit returned (and after Close in the shutdown
	// tests), never concurrently with Emit.
	Delivered func(t *testing.T, s core.Sink) []core.Event
}

// Run runs the whole suite against h as subtests of t.
func Run(t *testing.T, h Harness) {
	t.Run("Order", func(t *testing.T) { testOrder(t, h) })
	t.Run("EmptyBatch", func(t *testing.T) { testEmpty(t, h) })
	t.Run("Payloads", func(t *testing.T) { testPayloads(t, h) })
	t.Run("Concurrency", func(t *testing.T) { testConcurrency(t, h) })
	t.Run("CancelledContext", func(t *testing.T) { testCancelled(t, h) })
	t.Run("ShutdownFlush", func(t *testing.T) { testShutdownFlush(t, h) })
}

// event returns a distinct event; seq and who make it recognisable.
func event(who string, seq int) core.Event {
	return core.Event{Type: core.EventSkillServed, Timestamp: "2026-02-18T14:30:00.000Z", ServerID: "dev-sinktest",
		Data: map[string]any{"who": who, "seq": float64(seq), "skill_path": fmt.Sprintf("%s/%d", who, seq)}}
}

// canon renders events as JSON lines, so events decoded from a wire format
// compare equal to the ones sent.
func canon(t *testing.T, evs []core.Event) []string {
	t.Helper()
	out := make([]string, len(evs))
	for i, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("encoding event %d: %v", i, err)
		}
		var back core.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b, _ = json.Marshal(back)
		out[i] = string(b)
	}
	return out
}

func emit(t *testing.T, s core.Sink, evs []core.Event) {
	t.Helper()
	if err := s.Emit(context.Background(), evs); err != nil {
		t.Fatalf("Emit(%d events): %v", len(evs), err)
	}
}

func closeSink(t *testing.T, s core.Sink) {
	t.Helper()
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func testOrder(t *testing.T, h Harness) {
	s := h.New(t)
	var want []core.Event
	for batch := range 3 {
		evs := []core.Event{event("order", batch*10), event("order", batch*10+1), event("order", batch*10+2)}
		emit(t, s, evs)
		want = append(want, evs...)
	}
	if got, want := canon(t, h.Delivered(t, s)), canon(t, want); !slices.Equal(got, want) {
		t.Errorf("delivered\n%v\nwant, in emit order,\n%v", got, want)
	}
	closeSink(t, s)
}

func testEmpty(t *testing.T, h Harness) {
	s := h.New(t)
	for _, evs := range [][]core.Event{nil, {}} {
		if err := s.Emit(context.Background(), evs); err != nil {
			t.Errorf("Emit(%v) = %v, want nil", evs, err)
		}
	}
	if got := h.Delivered(t, s); len(got) != 0 {
		t.Errorf("an empty batch delivered %v, want nothing", got)
	}
	closeSink(t, s)
}

func testPayloads(t *testing.T, h Harness) {
	s := h.New(t)
	evs := []core.Event{
		{Type: core.EventScriptExecuted, Timestamp: "2026-02-18T14:30:00.000Z", ServerID: "dev-ünïcode",
			Data: map[string]any{"stderr": "line 1\nline 2\r\n\u2028\u2029 \"quoted\" \\ \t", "nested": map[string]any{"list": []any{1.5, "x", nil, true}}}},
		{Type: core.EventSkillFeedback, Timestamp: "2026-02-18T14:30:00.001Z", ServerID: "dev-x",
			Data: map[string]any{"emoji": "🚀", "html": "<script>&amp;</script>", "empty": ""}},
	}
	emit(t, s, evs)
	if got, want := canon(t, h.Delivered(t, s)), canon(t, evs); !slices.Equal(got, want) {
		t.Errorf("delivered\n%v\nwant\n%v", got, want)
	}
	closeSink(t, s)
}

func testConcurrency(t *testing.T, h Harness) {
	s := h.New(t)
	const writers, batches, size = 8, 10, 3
	var wg sync.WaitGroup
	errs := make(chan error, writers*batches)
	for w := range writers {
		wg.Go(func() {
			for b := range batches {
				evs := make([]core.Event, size)
				for i := range evs {
					evs[i] = event(fmt.Sprint("w", w), b*size+i)
				}
				if err := s.Emit(context.Background(), evs); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent Emit: %v", err)
	}
	got := h.Delivered(t, s)
	if len(got) != writers*batches*size {
		t.Fatalf("delivered %d events, want %d: none lost, none duplicated", len(got), writers*batches*size)
	}
	next := map[string]float64{}
	for _, ev := range got {
		who, _ := ev.Data["who"].(string)
		seq, _ := ev.Data["seq"].(float64)
		if seq != next[who] {
			t.Fatalf("writer %s: event %v arrived when %v was next; each writer's events must keep their order", who, seq, next[who])
		}
		next[who]++
	}
	closeSink(t, s)
}

func testCancelled(t *testing.T, h Harness) {
	s := h.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	evs := []core.Event{event("cancelled", 0)}
	err := s.Emit(ctx, evs)
	got := h.Delivered(t, s)
	switch {
	case err == nil && !slices.Equal(canon(t, got), canon(t, evs)):
		t.Errorf("Emit with a cancelled context returned nil but delivered %v, want the batch", got)
	case err != nil && !errors.Is(err, context.Canceled):
		t.Errorf("Emit with a cancelled context = %v, want an error wrapping context.Canceled", err)
	case err != nil && len(got) != 0:
		t.Errorf("Emit failed (%v) yet delivered %v", err, got)
	}
	closeSink(t, s)
}

// testShutdownFlush runs the sink behind internal/events' publisher, as the
// server does: events tracked and still queued when the server stops reach the
// sink before its Close, and none go to the fallback buffer.
func testShutdownFlush(t *testing.T, h Harness) {
	s := h.New(t)
	tracker := events.NewTracker(events.TrackerOptions{Enabled: true, ServerID: "dev-sinktest"})
	buffer := eventbuf.New(filepath.Join(t.TempDir(), "buffer.jsonl"))
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tracker, Primary: s, Buffer: buffer})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pub.Start(ctx)
	const n = 25
	for i := range n {
		tracker.Track(core.EventSkillServed, map[string]any{"who": "flush", "seq": i})
	}
	if err := pub.Close(context.Background()); err != nil {
		t.Fatalf("publisher Close: %v", err)
	}
	got := h.Delivered(t, s)
	if len(got) != n {
		t.Errorf("delivered %d events at shutdown, want all %d", len(got), n)
	}
	for i, ev := range got {
		if seq, _ := ev.Data["seq"].(float64); int(seq) != i {
			t.Errorf("event %d has seq %v, want %d: tracked order kept", i, ev.Data["seq"], i)
			break
		}
	}
	if left, err := buffer.ReadAll(context.Background()); err != nil || len(left) != 0 {
		t.Errorf("fallback buffer holds %d events (%v), want none: the sink took them all", len(left), err)
	}
}
