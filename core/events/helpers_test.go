package events_test

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
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
	logger := hclog.New(&hclog.LoggerOptions{Output: capture, JSONFormat: true, Level: hclog.Trace})
	return logger, capture
}
