package log

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestEmitLogsEachEvent(t *testing.T) {
	var out bytes.Buffer
	logger := hclog.New(&hclog.LoggerOptions{Output: &out, JSONFormat: true, Level: hclog.Info})
	evs := []core.Event{
		{Type: core.EventNoMatch, Timestamp: "2026-02-18T14:30:00.000Z", ServerID: "dev-a", Data: map[string]any{"context": "deploy"}},
		{Type: core.EventSkillFeedback, Timestamp: "2026-02-18T14:30:01.000Z", ServerID: "dev-a", Data: map[string]any{"skill_path": "ops", "useful": true}},
	}
	s := New(logger)
	if err := s.Emit(context.Background(), evs); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	lines := bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n"))
	if len(lines) != len(evs) {
		t.Fatalf("got %d log lines, want %d:\n%s", len(lines), len(evs), out.String())
	}
	for i, ev := range evs {
		t.Run(ev.Type, func(t *testing.T) {
			var entry map[string]any
			if err := json.Unmarshal(lines[i], &entry); err != nil {
				t.Fatalf("log line %q: %v", lines[i], err)
			}
			want := map[string]any{
				"@level": "info", "@message": "analytics event", "type": ev.Type,
				"timestamp": ev.Timestamp, "server_id": ev.ServerID, "data": ev.Data,
			}
			for k, v := range want {
				if !reflect.DeepEqual(entry[k], v) {
					t.Errorf("%s = %v, want %v", k, entry[k], v)
				}
			}
		})
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestNilLoggerDiscards(t *testing.T) {
	s := New(nil)
	if err := s.Emit(context.Background(), []core.Event{{Type: core.EventRefresh}}); err != nil {
		t.Errorf("Emit: %v", err)
	}
}
