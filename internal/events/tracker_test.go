package events_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/events"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestTrackerDisabledRecordsNothing(t *testing.T) {
	tr := events.NewTracker(events.TrackerOptions{Enabled: false, ServerID: "dev-x"})
	tr.Track(core.EventSkillServed, map[string]any{"skill_path": "a"})
	if got := tr.Len(); got != 0 {
		t.Errorf("Len = %d, want 0", got)
	}
	if got := tr.Drain(); len(got) != 0 {
		t.Errorf("Drain = %v, want nothing", got)
	}
}

func TestTrackerStampsEvents(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	now := time.Date(2026, 2, 18, 15, 30, 0, 123_456_789, paris)
	tr := events.NewTracker(events.TrackerOptions{Enabled: true, ServerID: "dev-alice", Now: func() time.Time { return now }})

	data := map[string]any{"context": "deploy"}
	tr.Track(core.EventNoMatch, data)
	data["context"] = "changed after Track"
	tr.Track(core.EventRefresh, nil)

	got := tr.Drain()
	if len(got) != 2 {
		t.Fatalf("Drain returned %d events, want 2", len(got))
	}
	want := core.Event{Type: core.EventNoMatch, Timestamp: "2026-02-18T14:30:00.123Z", ServerID: "dev-alice"}
	if got[0].Type != want.Type || got[0].Timestamp != want.Timestamp || got[0].ServerID != want.ServerID {
		t.Errorf("event = %+v, want %+v", got[0], want)
	}
	if got[0].Data["context"] != "deploy" {
		t.Errorf("data context = %v, want %q (Track must copy data)", got[0].Data["context"], "deploy")
	}
	if got[1].Data == nil {
		t.Errorf("nil data: got nil map, want an empty map (encodes as {})")
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("Len after Drain = %d, want 0", n)
	}
}

func TestTrackerBoundedQueue(t *testing.T) {
	tests := []struct {
		name        string
		max, track  int
		wantFirstID int
		wantDropped float64 // 0: no warning
	}{
		{name: "below bound", max: 5, track: 3, wantFirstID: 0},
		{name: "at bound", max: 5, track: 5, wantFirstID: 0},
		{name: "over bound drops oldest", max: 5, track: 8, wantFirstID: 3, wantDropped: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, logs := testlog.NewJSONLogger()
			tr := events.NewTracker(events.TrackerOptions{Enabled: true, MaxQueued: tt.max, Logger: logger})
			for i := range tt.track {
				tr.Track(core.EventSkillServed, map[string]any{"id": i})
			}
			got := tr.Drain()
			wantLen := min(tt.track, tt.max)
			if len(got) != wantLen {
				t.Fatalf("Drain returned %d events, want %d", len(got), wantLen)
			}
			for i, ev := range got {
				if ev.Data["id"] != tt.wantFirstID+i {
					t.Errorf("event %d id = %v, want %d", i, ev.Data["id"], tt.wantFirstID+i)
				}
			}
			warnings := logs.Entries(t, "analytics queue full: dropped oldest events")
			switch {
			case tt.wantDropped == 0 && len(warnings) != 0:
				t.Errorf("got %d drop warnings, want none", len(warnings))
			case tt.wantDropped > 0 && len(warnings) != 1:
				t.Errorf("got %d drop warnings, want 1", len(warnings))
			case tt.wantDropped > 0 && warnings[0]["dropped"] != tt.wantDropped:
				t.Errorf("warning dropped = %v, want %v", warnings[0]["dropped"], tt.wantDropped)
			}
		})
	}
}

func TestTrackerConcurrentTrackAndDrain(t *testing.T) {
	tr := events.NewTracker(events.TrackerOptions{Enabled: true})
	const writers, perWriter = 8, 200
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				tr.Track(core.EventAssetServed, map[string]any{"id": fmt.Sprintf("%d-%d", w, i)})
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	collect := func() {
		for _, ev := range tr.Drain() {
			seen[ev.Data["id"].(string)]++
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		collect()
	}
	collect()
	if len(seen) != writers*perWriter {
		t.Errorf("got %d distinct events, want %d", len(seen), writers*perWriter)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("event %s drained %d times, want 1", id, n)
		}
	}
}
