package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
	sinkhttp "github.com/skills-mcp/skills-mcp/plugins/sink/http"
)

// TestEventLargerThanTheBuffer is issue 26, item 10: an event larger than the
// whole buffer (analytics.max_buffer_bytes) is refused by Record, not queued
// to be sent later behind the answer's back; tracked, it is left out and the
// events around it are still delivered, once each.
func TestEventLargerThanTheBuffer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Events []core.Event `json:"events"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range body.Events {
			got = append(got, ev.Data["skill_path"].(string))
		}
	}))
	defer srv.Close()
	buffer := eventbuf.New(filepath.Join(t.TempDir(), "buffer.jsonl"), eventbuf.WithMaxBytes(20_000))
	tr := events.NewTracker(events.TrackerOptions{Enabled: true, Durable: buffer})
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tr, Buffer: buffer, Primary: sinkhttp.New(sinkhttp.Options{Endpoint: srv.URL})})
	huge := strings.Repeat("x", 30_000)

	err := tr.Record(context.Background(), core.EventSkillFeedback, map[string]any{"skill_path": "big", "comment": huge})

	if !errors.Is(err, core.ErrEventTooLarge) {
		t.Errorf("Record error = %v, want ErrEventTooLarge", err)
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("%d events queued after a refused Record, want 0", n)
	}
	tr.Track(core.EventSkillServed, map[string]any{"skill_path": "before"})
	tr.Track(core.EventNoMatch, map[string]any{"skill_path": "huge", "context": huge})
	tr.Track(core.EventSkillServed, map[string]any{"skill_path": "after"})
	if err := pub.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, ",") != "before,after" {
		t.Errorf("endpoint received %v, want before,after once each", got)
	}
}
