package eventbuf

import (
	"encoding/json"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

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
