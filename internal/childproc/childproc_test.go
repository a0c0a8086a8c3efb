package childproc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

var errSentinel = errors.New("sentinel")

// An error crosses as its message and the sentinels it wraps.
func TestFaultRoundTrip(t *testing.T) {
	table := map[string]error{"sentinel": errSentinel, "canceled": context.Canceled}
	err := FaultOf(fmt.Errorf("doing it: %w", errSentinel), table).Err(table)
	if err.Error() != "doing it: sentinel" || !errors.Is(err, errSentinel) || errors.Is(err, context.Canceled) {
		t.Errorf("round trip: %v", err)
	}
	if FaultOf(nil, table).Err(table) != nil {
		t.Error("nil does not stay nil")
	}
}

// A child's JSON log lines reach the server's log at their level with their
// fields; a line that is not JSON (a panic) is an error.
func TestRelay(t *testing.T) {
	var out strings.Builder
	w := &RelayWriter{log: hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Trace})}
	var child strings.Builder
	Logger("git", "debug", &child).Warn("sync failed", "head", "abc")
	fmt.Fprint(w, child.String()+"panic: boom")
	w.Flush()
	got := out.String()
	if !strings.Contains(got, "[WARN]  sync failed: head=abc") || !strings.Contains(got, "[ERROR] helper: line=\"panic: boom\"") {
		t.Errorf("relayed:\n%s", got)
	}
}
