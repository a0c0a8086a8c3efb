// Package testlog holds the goroutine-safe writers tests capture logs and
// process output with: a plain buffer, and a collector of hclog's JSON lines.
// Only tests import it.
package testlog

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// Buffer is a bytes.Buffer safe to write from several goroutines (a logger, a
// child process) while a test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// JSONCapture collects the JSON lines of an hclog logger.
type JSONCapture struct {
	Buffer
}

// NewJSONLogger returns a trace-level hclog logger writing JSON lines to a
// new JSONCapture.
func NewJSONLogger() (hclog.Logger, *JSONCapture) {
	c := &JSONCapture{}
	return hclog.New(&hclog.LoggerOptions{Output: c, JSONFormat: true, Level: hclog.Trace}), c
}

// Entries returns the decoded log lines whose message is msg; a line that is
// not JSON fails the test.
func (c *JSONCapture) Entries(t testing.TB, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace([]byte(c.String())), []byte("\n")) {
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
