package events_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	sinkhttp "github.com/skills-mcp/skills-mcp/plugins/sink/http"
)

var isoMillis = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)

// pipeline is a tracker and a publisher wired to a real HTTP sink and a real
// JSONL buffer file.
type pipeline struct {
	tracker    *events.Tracker
	publisher  *events.Publisher
	bufferPath string
}

func newPipeline(t *testing.T, endpointURL, bufferPath string) pipeline {
	t.Helper()
	return newLoggedPipeline(t, endpointURL, bufferPath, nil)
}

func newLoggedPipeline(t *testing.T, endpointURL, bufferPath string, logger hclog.Logger) pipeline {
	t.Helper()
	tr := events.NewTracker(events.TrackerOptions{Enabled: true, ServerID: "dev-test"})
	pub := events.NewPublisher(events.PublisherOptions{
		Tracker: tr,
		Primary: sinkhttp.New(sinkhttp.Options{Endpoint: endpointURL}),
		Buffer:  eventbuf.New(bufferPath),
		Logger:  logger,
	})
	return pipeline{tracker: tr, publisher: pub, bufferPath: bufferPath}
}

// buffered reads the buffer file with a fresh reader.
func buffered(t *testing.T, path string) []core.Event {
	t.Helper()
	evs, err := eventbuf.New(path).ReadAll(context.Background())
	if err != nil {
		t.Fatalf("reading buffer %s: %v", path, err)
	}
	return evs
}

func trackIDs(tr *events.Tracker, from, to int) {
	for i := from; i < to; i++ {
		tr.Track(core.EventSkillServed, map[string]any{"id": i})
	}
}

// jsonRoundTrip gives data the shape it has after crossing the wire.
func jsonRoundTrip(t *testing.T, data map[string]any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFlushDeliversEveryEventType(t *testing.T) {
	ep := newEndpoint(t)
	p := newPipeline(t, ep.srv.URL, filepath.Join(t.TempDir(), "buffer.jsonl"))
	tests := []struct {
		eventType string
		data      map[string]any
	}{
		{core.EventNoMatch, map[string]any{"context": "deploy to mars"}},
		{core.EventAmbiguous, map[string]any{"context": "react forms", "candidates": []string{"ui/react", "ui/forms"}}},
		{core.EventSkillServed, map[string]any{"context": "sql", "skill_path": "data/sql", "score": 0.75, "matched_keywords": []string{"sql"}, "was_ambiguous": false}},
		{core.EventAssetServed, map[string]any{"skill_path": "ui/react", "file": "assets/logo.png", "asset_type": "image/png", "is_inherited": true, "size_bytes": 2048}},
		{core.EventScriptExecuted, map[string]any{"skill_path": "ops", "file": "scripts/check.sh", "execution_mode": "server", "success": true, "exit_code": 0, "duration_ms": 12, "args_provided": []string{"env"}}},
		{core.EventSkillFeedback, map[string]any{"skill_path": "ops", "useful": false, "comment": "outdated"}},
		{core.EventRefresh, map[string]any{"mode": "force", "success": true, "commit_hash": "abc123", "files_changed": 3, "skills_reindexed": 12}},
	}
	for _, tt := range tests {
		p.tracker.Track(tt.eventType, tt.data)
	}
	if err := p.publisher.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	got := ep.received()
	if len(got) != len(tests) {
		t.Fatalf("endpoint received %d events, want %d", len(got), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.eventType, func(t *testing.T) {
			ev := got[i]
			if ev.Type != tt.eventType {
				t.Errorf("type = %q, want %q", ev.Type, tt.eventType)
			}
			if !isoMillis.MatchString(ev.Timestamp) {
				t.Errorf("timestamp = %q, want ISO 8601 with milliseconds and Z", ev.Timestamp)
			}
			if ev.ServerID != "dev-test" {
				t.Errorf("server_id = %q, want %q", ev.ServerID, "dev-test")
			}
			if want := jsonRoundTrip(t, tt.data); !reflect.DeepEqual(ev.Data, want) {
				t.Errorf("data = %v, want %v", ev.Data, want)
			}
		})
	}
	if evs := buffered(t, p.bufferPath); len(evs) != 0 {
		t.Errorf("buffer holds %d events after a successful flush, want 0", len(evs))
	}
}

func TestFlushEndpointDownThenUp(t *testing.T) {
	ep := newEndpoint(t)
	ep.down.Store(true)
	logger, logs := testlog.NewJSONLogger()
	p := newLoggedPipeline(t, ep.srv.URL, filepath.Join(t.TempDir(), "buffer.jsonl"), logger)
	ctx := context.Background()

	trackIDs(p.tracker, 0, 10)
	if err := p.publisher.Flush(ctx); err == nil {
		t.Fatal("Flush with the endpoint down: got nil error, want one")
	}
	assertExactlyOnce(t, buffered(t, p.bufferPath), 10)

	trackIDs(p.tracker, 10, 15)
	if err := p.publisher.Flush(ctx); err == nil {
		t.Fatal("second Flush with the endpoint down: got nil error, want one")
	}
	assertExactlyOnce(t, buffered(t, p.bufferPath), 15)

	ep.down.Store(false)
	trackIDs(p.tracker, 15, 20)
	if err := p.publisher.Flush(ctx); err != nil {
		t.Fatalf("Flush with the endpoint up: %v", err)
	}
	assertExactlyOnce(t, ep.received(), 20)
	if _, err := os.Stat(p.bufferPath); !os.IsNotExist(err) {
		t.Errorf("buffer file after delivery: stat error %v, want it gone", err)
	}

	if err := p.publisher.Flush(ctx); err != nil {
		t.Fatalf("idle Flush: %v", err)
	}
	assertExactlyOnce(t, ep.received(), 20)

	if n := len(logs.Entries(t, "analytics delivery failed; events kept in local buffer")); n != 1 {
		t.Errorf("got %d failure warnings for two failed flushes, want 1", n)
	}
	if n := len(logs.Entries(t, "analytics delivery recovered")); n != 1 {
		t.Errorf("got %d recovery messages, want 1", n)
	}
}

// TestBufferSurvivesRestart: the endpoint is unreachable (connection refused)
// for one server process; the next process delivers what the first buffered.
func TestBufferSurvivesRestart(t *testing.T) {
	bufferPath := filepath.Join(t.TempDir(), "nested", "buffer.jsonl")
	ctx := context.Background()

	gone := newEndpoint(t)
	gone.srv.Close()
	first := newPipeline(t, gone.srv.URL, bufferPath)
	trackIDs(first.tracker, 0, 4)
	if err := first.publisher.Close(ctx); err == nil {
		t.Fatal("Close with the endpoint unreachable: got nil error, want one")
	}
	assertExactlyOnce(t, buffered(t, bufferPath), 4)

	ep := newEndpoint(t)
	second := newPipeline(t, ep.srv.URL, bufferPath)
	trackIDs(second.tracker, 4, 6)
	if err := second.publisher.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	assertExactlyOnce(t, ep.received(), 6)
	if evs := buffered(t, bufferPath); len(evs) != 0 {
		t.Errorf("buffer holds %d events after delivery, want 0", len(evs))
	}
}

func TestCloseFlushes(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name          string
		down          bool
		ctx           context.Context
		wantDelivered int
		wantBuffered  int
	}{
		{name: "primary up", ctx: context.Background(), wantDelivered: 5},
		{name: "primary down", down: true, ctx: context.Background(), wantBuffered: 5},
		{name: "context already cancelled", ctx: cancelled, wantBuffered: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := newEndpoint(t)
			ep.down.Store(tt.down)
			p := newPipeline(t, ep.srv.URL, filepath.Join(t.TempDir(), "buffer.jsonl"))
			p.publisher.Start(context.Background())
			trackIDs(p.tracker, 0, 5)

			err := p.publisher.Close(tt.ctx)
			if wantErr := tt.wantBuffered > 0; (err != nil) != wantErr {
				t.Errorf("Close error = %v, want error: %v", err, wantErr)
			}
			if got := len(ep.received()); got != tt.wantDelivered {
				t.Errorf("delivered %d events, want %d", got, tt.wantDelivered)
			}
			if got := len(buffered(t, p.bufferPath)); got != tt.wantBuffered {
				t.Errorf("buffered %d events, want %d", got, tt.wantBuffered)
			}
			if err := p.publisher.Close(context.Background()); err != nil {
				t.Errorf("second Close: %v, want nil", err)
			}
		})
	}
}

func TestSlowEndpointDoesNotBlockTrack(t *testing.T) {
	bufferPath := filepath.Join(t.TempDir(), "buffer.jsonl")
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release // hangs until the test ends
	}))
	t.Cleanup(slow.Close)

	p := newPipeline(t, slow.URL, bufferPath)
	p.tracker.Track(core.EventRefresh, map[string]any{"id": 0})
	flushed := make(chan error, 1)
	go func() { flushed <- p.publisher.Flush(context.Background()) }()
	t.Cleanup(func() { <-flushed })      // second: wait for the flush to finish
	t.Cleanup(func() { close(release) }) // first: let the endpoint answer
	<-arrived                            // the flush is in flight, its request held by the endpoint

	trackIDs(p.tracker, 1, 1001)
	if got := p.tracker.Len(); got != 1000 {
		t.Errorf("queued %d events while a flush was in flight, want 1000", got)
	}
	select {
	case <-flushed:
		t.Fatal("Flush returned before the endpoint answered")
	default:
	}
}

func TestPublisherWithoutPrimaryWritesBuffer(t *testing.T) {
	bufferPath := filepath.Join(t.TempDir(), "buffer.jsonl")
	tr := events.NewTracker(events.TrackerOptions{Enabled: true})
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tr, Buffer: eventbuf.New(bufferPath)})
	trackIDs(tr, 0, 3)
	if err := pub.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	trackIDs(tr, 3, 5)
	if err := pub.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	assertExactlyOnce(t, buffered(t, bufferPath), 5)
}

func TestFlushWithUnreadableBufferSendsNewEventsOnly(t *testing.T) {
	ep := newEndpoint(t)
	bufferPath := t.TempDir() // a directory: reading it as a file fails
	p := newPipeline(t, ep.srv.URL, bufferPath)
	trackIDs(p.tracker, 0, 3)
	if err := p.publisher.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	assertExactlyOnce(t, ep.received(), 3)
	if info, err := os.Stat(bufferPath); err != nil || !info.IsDir() {
		t.Errorf("unreadable buffer was cleared (stat: %v), want it left alone", err)
	}
}

func TestFlushWithNothingSendsNothing(t *testing.T) {
	ep := newEndpoint(t)
	p := newPipeline(t, ep.srv.URL, filepath.Join(t.TempDir(), "buffer.jsonl"))
	if err := p.publisher.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if n := ep.requestCount(); n != 0 {
		t.Errorf("endpoint got %d requests, want 0", n)
	}
}
