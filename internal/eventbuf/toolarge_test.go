package eventbuf

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestEventLargerThanTheBufferIsRefused is issue 26, item 10: with
// analytics.max_buffer_bytes 20000 a 30 KB feedback comment made the append
// drop every line to make room, then the new line itself, and Emit returned
// nil: report_usage said recorded, the buffer was empty. Now such an event is
// left out with a warning, the others stay, and the error wraps
// core.ErrEventTooLarge.
func TestEventLargerThanTheBufferIsRefused(t *testing.T) {
	t.Parallel()
	huge := event(9)
	huge.Data["comment"] = strings.Repeat("x", 30_000)
	tests := []struct {
		name    string
		batch   []core.Event
		wantErr bool
		wantIDs []int
	}{
		{"alone", []core.Event{huge}, true, []int{0, 1}},
		{"among others", []core.Event{event(2), huge, event(3)}, true, []int{0, 1, 2, 3}},
		{"none too large", []core.Event{event(2)}, false, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			logger, logs := testlog.NewJSONLogger()
			b := New(filepath.Join(t.TempDir(), "buffer.jsonl"), WithMaxBytes(20_000), WithLogger(logger))
			if err := b.Emit(context.Background(), eventRange(0, 2)); err != nil {
				t.Fatal(err)
			}

			err := b.Emit(context.Background(), tt.batch)

			if got := errors.Is(err, core.ErrEventTooLarge); got != tt.wantErr {
				t.Errorf("Emit error = %v, want ErrEventTooLarge: %v", err, tt.wantErr)
			}
			got, rerr := b.ReadAll(context.Background())
			if rerr != nil {
				t.Fatal(rerr)
			}
			if !slices.Equal(ids(got), tt.wantIDs) {
				t.Errorf("buffer holds ids %v, want %v", ids(got), tt.wantIDs)
			}
			warned := len(logs.Entries(t, "analytics buffer: event larger than the whole buffer, left out"))
			if want := map[bool]int{true: 1, false: 0}[tt.wantErr]; warned != want {
				t.Errorf("%d warnings, want %d", warned, want)
			}
		})
	}
}

// TestDroppedFeedbackIsCounted: when room is made by dropping the oldest
// lines, the warning counts the acknowledged feedback among them.
func TestDroppedFeedbackIsCounted(t *testing.T) {
	t.Parallel()
	logger, logs := testlog.NewJSONLogger()
	feedback := func(id int) core.Event {
		ev := event(id)
		ev.Type = core.EventSkillFeedback
		return ev
	}
	// Room for three lines: a feedback line is 2 bytes longer than a
	// skill_served one.
	b := New(filepath.Join(t.TempDir(), "buffer.jsonl"), WithMaxBytes(3*lineSize(t, 0)+10), WithLogger(logger))
	for _, batch := range [][]core.Event{{feedback(0), event(1), feedback(2)}, {event(3), event(4)}} {
		if err := b.Emit(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	var dropped, feedbackDropped float64
	for _, w := range logs.Entries(t, "analytics buffer full: dropped oldest events") {
		dropped += w["dropped"].(float64)
		feedbackDropped += w["feedback_dropped"].(float64)
	}
	if dropped != 2 || feedbackDropped != 1 {
		t.Errorf("warnings count %v dropped, %v of them feedback; want 2 and 1", dropped, feedbackDropped)
	}
}
