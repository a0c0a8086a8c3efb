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

// A log line longer than MaxLogLine is relayed cut, marked with what was
// dropped, whatever the size of the writes that bring it; the lines after it
// are relayed as usual (issue 26, item 9).
func TestRelayCutsLongLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxLogLine+100)
	for _, tc := range []struct {
		name   string
		writes []string
		want   []string
	}{
		{"one write", []string{long + "\n" + `{"@level":"info","@message":"next"}` + "\n"}, []string{"dropped_bytes=100", "[INFO]  next"}},
		{"small writes", strings.SplitAfter(long+"\n"+`{"@level":"warn","@message":"next"}`+"\n", "xxxxxxx"), []string{"dropped_bytes=100", "[WARN]  next"}},
		{"no line end", []string{long, long}, []string{"dropped_bytes=65736"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			w := LogWriter(hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Trace}))
			for _, s := range tc.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			w.Flush()
			got := out.String()
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("relayed log lacks %q:\n%.200s", want, got)
				}
			}
			if strings.Count(got, "helper log line cut") != 1 || len(got) > MaxLogLine+1000 {
				t.Errorf("want one cut line of about MaxLogLine bytes; got %d bytes:\n%.200s", len(got), got)
			}
		})
	}
}
