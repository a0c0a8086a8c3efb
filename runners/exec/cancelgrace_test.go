package exec_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestCancelGraceKillsInsideTheExitBudget is issue 26, item 6: a run whose
// context is cancelled (the server is stopping) gets SIGTERM, then SIGKILL
// after the cancel grace, not after the 5 s grace of a timeout, so a server
// stopping kills its scripts inside its exit budget. The script ignores
// SIGTERM and would sleep 60 s; the grace of a timeout stays as configured.
func TestCancelGraceKillsInsideTheExitBudget(t *testing.T) {
	requireProgram(t, "bash")
	t.Parallel()
	const body = "trap '' TERM\ntouch \"$SKILL_ARG_READY\"\nsleep 60\n"
	tests := []struct {
		name      string
		cancel    bool // cancel the context, else time out
		grace     time.Duration
		wantGrace string
	}{
		// A grace of a minute: only the cancel grace ends the run early.
		{"cancelled: the cancel grace", true, time.Minute, "grace=50ms"},
		{"timed out: the grace", false, 300 * time.Millisecond, "grace=300ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ready := filepath.Join(t.TempDir(), "ready")
			req := request(t, "s.sh", body, map[string]string{"ready": ready})
			if !tt.cancel {
				req.Timeout = 500 * time.Millisecond
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.cancel {
				go func() {
					defer cancel()
					for range 3000 { // at most about 30 s, then cancel anyway
						if _, err := os.Stat(ready); err == nil {
							return
						}
						time.Sleep(10 * time.Millisecond)
					}
				}()
			}
			var logs bytes.Buffer
			logger := hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})
			r := newRunner(t, "bash", exec.WithGrace(tt.grace), exec.WithCancelGrace(50*time.Millisecond), exec.WithLogger(logger))

			start := time.Now()
			res, err := r.Run(ctx, req)
			took := time.Since(start)

			if tt.cancel != errors.Is(err, context.Canceled) || !tt.cancel && !res.TimedOut {
				t.Fatalf("got error %v, timed out %v", err, res.TimedOut)
			}
			if !strings.Contains(logs.String(), tt.wantGrace) {
				t.Errorf("logs do not show %s:\n%s", tt.wantGrace, logs.String())
			}
			// The script would sleep 60 s with SIGTERM ignored, and the grace
			// is a minute or less: only a SIGKILL after the short grace ends
			// it within 30 s, whatever the machine's load.
			if took > 30*time.Second {
				t.Errorf("Run took %v: the script was not killed", took)
			}
		})
	}
}
