package wasm_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestTimeoutInterruptsSleep runs a guest that sleeps 30 s under a 1 s limit,
// in a synctest bubble: the guest's sleep is a host timer on the bubble's fake
// clock, so the reported duration tells whether the sleep ended at the deadline
// (1 s) or ran its course (30 s) without measuring real time.
func TestTimeoutInterruptsSleep(t *testing.T) {
	r := newRunner(t)
	req := skillWith(t, "sleep.wasm")
	req.Timeout = time.Second
	synctest.Test(t, func(t *testing.T) {
		res := run(t, r, req)

		if !res.TimedOut || res.ExitCode != core.TimeoutExitCode {
			t.Errorf("TimedOut %v exit code %d, want true and %d", res.TimedOut, res.ExitCode, core.TimeoutExitCode)
		}
		if res.Stdout != "started\n" {
			t.Errorf("stdout = %q, want %q", res.Stdout, "started\n")
		}
		// The guest's runtime asks for a little less than 30 s once it has
		// started, so compare with a bound far from both 1 s and 30 s.
		if res.Duration >= 10*time.Second {
			t.Errorf("duration on the bubble's clock = %v, want about the 1 s limit, far below the guest's 30 s sleep", res.Duration)
		}
	})
}
