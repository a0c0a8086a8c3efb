package events_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
)

// recordingSink is an in-memory primary sink: the loop test runs in a
// synctest bubble, where a real network endpoint cannot be waited on.
type recordingSink struct {
	mu      sync.Mutex
	batches [][]core.Event
	closed  bool
}

func (s *recordingSink) Emit(_ context.Context, evs []core.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, append([]core.Event(nil), evs...))
	return nil
}

func (s *recordingSink) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

func (s *recordingSink) batchSizes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	sizes := make([]int, len(s.batches))
	for i, b := range s.batches {
		sizes[i] = len(b)
	}
	return sizes
}

func TestPublisherLoopFlushesEveryInterval(t *testing.T) {
	tests := []struct {
		name     string
		interval time.Duration
	}{
		{name: "explicit 30s", interval: 30 * time.Second},
		{name: "default interval", interval: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bufferPath := filepath.Join(t.TempDir(), "buffer.jsonl")
			synctest.Test(t, func(t *testing.T) {
				rec := &recordingSink{}
				tr := events.NewTracker(events.TrackerOptions{Enabled: true})
				pub := events.NewPublisher(events.PublisherOptions{
					Tracker: tr, Primary: rec, Buffer: eventbuf.New(bufferPath), Interval: tt.interval,
				})
				pub.Start(context.Background())
				synctest.Wait() // the flush at start finds nothing to send
				step := func(d time.Duration, want []int) {
					t.Helper()
					time.Sleep(d)
					synctest.Wait()
					if got := rec.batchSizes(); !slices.Equal(got, want) {
						t.Fatalf("after %v more: batch sizes %v, want %v", d, got, want)
					}
				}

				trackIDs(tr, 0, 2)
				step(29*time.Second, nil)
				step(time.Second, []int{2})
				trackIDs(tr, 2, 5)
				step(30*time.Second, []int{2, 3})
				step(30*time.Second, []int{2, 3}) // nothing queued: nothing sent

				trackIDs(tr, 5, 6)
				if err := pub.Close(context.Background()); err != nil {
					t.Fatalf("Close: %v", err)
				}
				if got := rec.batchSizes(); !slices.Equal(got, []int{2, 3, 1}) {
					t.Errorf("after Close: batch sizes %v, want [2 3 1]", got)
				}
				if !rec.closed {
					t.Error("Close did not close the primary sink")
				}
				trackIDs(tr, 6, 7)
				step(time.Minute, []int{2, 3, 1}) // the loop has stopped
			})
		})
	}
}

func TestPublisherLoopStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recordingSink{}
		tr := events.NewTracker(events.TrackerOptions{Enabled: true})
		pub := events.NewPublisher(events.PublisherOptions{Tracker: tr, Primary: rec})
		ctx, cancel := context.WithCancel(context.Background())
		pub.Start(ctx)
		pub.Start(ctx) // a second Start has no effect
		trackIDs(tr, 0, 1)
		time.Sleep(events.DefaultInterval)
		synctest.Wait()
		cancel()
		trackIDs(tr, 1, 2)
		time.Sleep(2 * events.DefaultInterval)
		synctest.Wait()
		if got := rec.batchSizes(); !slices.Equal(got, []int{1}) {
			t.Errorf("batch sizes %v, want [1]", got)
		}
		if err := pub.Close(context.Background()); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if got := rec.batchSizes(); !slices.Equal(got, []int{1, 1}) {
			t.Errorf("after Close: batch sizes %v, want [1 1]", got)
		}
	})
}
