package jsonl

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// logCapture is a goroutine-safe writer that collects hclog's JSON lines.
type logCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *logCapture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

// entries returns the decoded log lines whose message is msg.
func (c *logCapture) entries(t *testing.T, msg string) []map[string]any {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(c.buf.Bytes()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var entry map[string]any
		if err := json.Unmarshal(line, &entry); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if entry["@message"] == msg {
			out = append(out, entry)
		}
	}
	return out
}

func newTestLogger() (hclog.Logger, *logCapture) {
	capture := &logCapture{}
	return hclog.New(&hclog.LoggerOptions{Output: capture, JSONFormat: true, Level: hclog.Trace}), capture
}

// event returns a skill_served event whose data carries id.
func event(id int) core.Event {
	return core.Event{
		Type:      core.EventSkillServed,
		Timestamp: "2026-02-18T14:30:00.000Z",
		ServerID:  "dev-test",
		Data:      map[string]any{"id": float64(id), "skill_path": "data/sql"},
	}
}

func eventRange(from, to int) []core.Event {
	var evs []core.Event
	for i := from; i < to; i++ {
		evs = append(evs, event(i))
	}
	return evs
}

// ids returns the data ids of evs, in order.
func ids(evs []core.Event) []int {
	out := make([]int, len(evs))
	for i, ev := range evs {
		id, _ := ev.Data["id"].(float64)
		out[i] = int(id)
	}
	return out
}

// lineSize is the encoded size of event(id) with its newline.
func lineSize(t *testing.T, id int) int64 {
	t.Helper()
	raw, err := json.Marshal(event(id))
	if err != nil {
		t.Fatal(err)
	}
	return int64(len(raw) + 1)
}
