package log_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	logsink "github.com/skills-mcp/skills-mcp/plugins/sink/log"
	"github.com/skills-mcp/skills-mcp/plugins/sink/sinktest"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// TestConformance reads the events back from the sink's log lines, written as
// hclog JSON.
func TestConformance(t *testing.T) {
	logs := map[core.Sink]*lockedBuffer{}
	var mu sync.Mutex
	sinktest.Run(t, sinktest.Harness{
		New: func(t *testing.T) core.Sink {
			out := &lockedBuffer{}
			s := logsink.New(hclog.New(&hclog.LoggerOptions{Output: out, JSONFormat: true, Level: hclog.Info}))
			mu.Lock()
			logs[s] = out
			mu.Unlock()
			return s
		},
		Delivered: func(t *testing.T, s core.Sink) []core.Event {
			mu.Lock()
			out := logs[s]
			mu.Unlock()
			var evs []core.Event
			sc := bufio.NewScanner(bytes.NewReader(out.bytes()))
			for sc.Scan() {
				var line struct {
					Message string `json:"@message"`
					core.Event
				}
				if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
					t.Fatalf("log line %q: %v", sc.Text(), err)
				}
				if line.Message == "analytics event" {
					evs = append(evs, line.Event)
				}
			}
			return evs
		},
	})
}
