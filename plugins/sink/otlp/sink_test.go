package otlp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
	"github.com/skills-mcp/skills-mcp/internal/otlptest"
	"github.com/skills-mcp/skills-mcp/plugins/sink/otlp"
)

// TestOutage runs the sink behind the real publisher and JSONL buffer, as
// the server does, against a receiver that goes down in the middle: every
// event arrives, exactly once, in order, once the receiver is back.
func TestOutage(t *testing.T) {
	r := otlptest.Start(t)
	s, err := otlp.New(otlp.Options{Getenv: env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": r.URL})})
	if err != nil {
		t.Fatal(err)
	}
	tracker := events.NewTracker(events.TrackerOptions{Enabled: true, ServerID: "dev-outage"})
	buffer := eventbuf.New(filepath.Join(t.TempDir(), "buffer.jsonl"))
	pub := events.NewPublisher(events.PublisherOptions{Tracker: tracker, Primary: s, Buffer: buffer})
	ctx := context.Background()
	track := func(from, to int) {
		for i := from; i < to; i++ {
			tracker.Track(core.EventSkillServed, map[string]any{"skill_path": fmt.Sprintf("s/%d", i), "seq": i})
		}
	}

	track(0, 10)
	if err := pub.Flush(ctx); err != nil {
		t.Fatalf("flush with the receiver up: %v", err)
	}
	r.SetDown(true)
	track(10, 20)
	if err := pub.Flush(ctx); err == nil {
		t.Fatal("flush during the outage: got nil, want the delivery error")
	}
	track(20, 25)
	if err := pub.Flush(ctx); err == nil {
		t.Fatal("second flush during the outage: got nil, want the delivery error")
	}
	if r.Refused() < 2 {
		t.Fatalf("the receiver refused %d exports, want the 2 attempts during the outage", r.Refused())
	}
	r.SetDown(false)
	track(25, 30)
	if err := pub.Close(ctx); err != nil { // the shutdown flush delivers the rest
		t.Fatalf("close after the outage: %v", err)
	}

	got := received(r)
	if len(got) != 30 {
		t.Fatalf("received %d events, want 30 (each once)", len(got))
	}
	ids := map[string]bool{}
	for i, ev := range got {
		if seq := fmt.Sprint(ev.Data["seq"]); seq != fmt.Sprint(i) {
			t.Errorf("event %d has seq %v, want %d", i, ev.Data["seq"], i)
		}
		if ev.ID == "" || ids[ev.ID] {
			t.Errorf("event %d: id %q missing or repeated", i, ev.ID)
		}
		ids[ev.ID] = true
	}
	if left, err := buffer.ReadAll(ctx); err != nil || len(left) != 0 {
		t.Errorf("buffer holds %d events (%v) after delivery, want none", len(left), err)
	}
}

// TestRecordShape pins what a collector sees: the event name, the data
// fields as attributes under their own names, the time, and the resource.
func TestRecordShape(t *testing.T) {
	r := otlptest.Start(t)
	s, err := otlp.New(otlp.Options{Version: "1.2.3", Getenv: env(map[string]string{
		"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": r.URL + "/v1/logs",
		"OTEL_SERVICE_NAME":                "skills-prod",
		"OTEL_RESOURCE_ATTRIBUTES":         "deployment.environment.name=prod,team=platform%20tools",
		"OTEL_EXPORTER_OTLP_COMPRESSION":   "gzip",
		"OTEL_EXPORTER_OTLP_HEADERS":       "x-tenant=acme",
	})})
	if err != nil {
		t.Fatal(err)
	}
	ev := core.Event{ID: "01J0000000000000000000000A", Type: core.EventScriptExecuted, Timestamp: "2026-02-18T14:30:00.123Z", ServerID: "dev-a",
		Data: map[string]any{"skill_path": "ops/deploy", "success": true, "exit_code": 0, "args_provided": []string{"env"}}}
	if err := s.Emit(context.Background(), []core.Event{ev}); err != nil {
		t.Fatal(err)
	}
	logs := r.Logs()
	if len(logs) != 1 {
		t.Fatalf("got %d records, want 1", len(logs))
	}
	lr := logs[0]
	if lr.EventName != "script_executed" {
		t.Errorf("event_name %q, want script_executed", lr.EventName)
	}
	if want := uint64(1771425000123000000); lr.TimeUnixNano != want {
		t.Errorf("time %d, want %d (the event's timestamp)", lr.TimeUnixNano, want)
	}
	attrs := otlptest.Attrs(lr.Attributes)
	for k, want := range map[string]string{"skill_path": "ops/deploy", "success": "true", "exit_code": "0",
		"skills_mcp.server_id": "dev-a", "skills_mcp.event_id": ev.ID, "skills_mcp.timestamp": ev.Timestamp} {
		if attrs[k] != want {
			t.Errorf("attribute %s = %q, want %q", k, attrs[k], want)
		}
	}
	res := r.LogResources()[0]
	for k, want := range map[string]string{"service.name": "skills-prod", "service.version": "1.2.3",
		"deployment.environment.name": "prod", "team": "platform tools"} {
		if res[k] != want {
			t.Errorf("resource %s = %q, want %q", k, res[k], want)
		}
	}
}

func TestBadSettings(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"endpoint not a URL", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, "want an http:// or https:// URL"},
		{"header without =", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "token"}, "OTEL_EXPORTER_OTLP_HEADERS"},
		{"timeout not a number", map[string]string{"OTEL_EXPORTER_OTLP_LOGS_TIMEOUT": "10s"}, "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT=10s"},
		{"unknown compression", map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, "want gzip or none"},
		{"missing CA file", map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"}, "OTEL_EXPORTER_OTLP_CERTIFICATE"},
		{"bad resource attributes", map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "novalue"}, "OTEL_RESOURCE_ATTRIBUTES"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := otlp.New(otlp.Options{Getenv: env(tt.env)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
