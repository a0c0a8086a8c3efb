package otlp_test

import (
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/otlptest"
	"github.com/skills-mcp/skills-mcp/plugins/sink/otlp"
)

// received decodes the log records r received back into events.
func received(r *otlptest.Receiver) []core.Event {
	var out []core.Event
	for _, lr := range r.Logs() {
		ev := core.Event{Type: lr.EventName, Data: map[string]any{}}
		for _, kv := range lr.Attributes {
			switch kv.Key {
			case otlp.AttrEventID:
				ev.ID, _ = otlptest.Any(kv.Value).(string)
			case otlp.AttrServerID:
				ev.ServerID, _ = otlptest.Any(kv.Value).(string)
			case otlp.AttrTimestamp:
				ev.Timestamp, _ = otlptest.Any(kv.Value).(string)
			default:
				ev.Data[kv.Key] = otlptest.Any(kv.Value)
			}
		}
		out = append(out, ev)
	}
	return out
}

// env is a getenv over a map.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
