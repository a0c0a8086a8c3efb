package childproc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/internal/testproc"
)

// fakeHelper misbehaves as its request says (testdata/fake-helper).
const fakeHelper = "testdata/fake-helper"

// fakeRequest is the fake helper's request.
type fakeRequest struct {
	Mode  string `json:"mode"`
	Dir   string `json:"dir"`
	Bytes int64  `json:"bytes,omitempty"`
}

// A helper that floods its stdout, or writes one endless log line, cannot
// grow the server's memory (issue 26, item 9): the answer is read up to its
// cap and the helper is stopped with an error naming the cap; a log line is
// kept up to MaxLogLine and relayed cut and marked. Before, the whole flood
// was kept (600 MB of stdout: 2.05 GB of server; a 500 MB stderr line: 1.1 GB
// and a stderr scan that made refresh_skills hang past 60 s). Memory is
// judged by what the call allocated against what the helper wrote: a
// fraction of it, where keeping the flood costs at least all of it.
func TestCallBoundsWhatItReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		req   fakeRequest
		check func(t *testing.T, err error, resp map[string]any, logs string)
	}{
		{"stdout flood", fakeRequest{Mode: "flood-stdout", Bytes: 256 << 20}, func(t *testing.T, err error, _ map[string]any, _ string) {
			if !errors.Is(err, ErrAnswerTooLarge) || !strings.Contains(err.Error(), "wrote more than 1048576 bytes") {
				t.Errorf("Call = %v; want ErrAnswerTooLarge naming the cap", err)
			}
		}},
		{"stderr line without end", fakeRequest{Mode: "long-stderr", Bytes: 32 << 20}, func(t *testing.T, err error, resp map[string]any, logs string) {
			if err != nil || resp["ok"] != true {
				t.Errorf("Call = %v, %v; want the answer", resp, err)
			}
			if !strings.Contains(logs, "helper log line cut") || !strings.Contains(logs, "dropped_bytes=33488896") {
				t.Errorf("the long line is not relayed cut and marked:\n%.300s", logs)
			}
			if len(logs) > 2*MaxLogLine {
				t.Errorf("relayed %d bytes of log for one line; want at most about MaxLogLine (%d)", len(logs), MaxLogLine)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Dir = t.TempDir()
			logs := &testlog.Buffer{}
			log := hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Trace})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var resp map[string]any
			err := Call(t.Context(), fakeHelper, tc.req, &resp, Options{Log: log})
			runtime.ReadMemStats(&after)
			tc.check(t, err, resp, logs.String())
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("the helper wrote %d MiB; the call allocated %.1f MiB; %v", tc.req.Bytes>>20, float64(allocated)/(1<<20), err)
			if allocated > uint64(tc.req.Bytes)/4 {
				t.Errorf("the call allocated %d bytes for %d bytes written; want a fraction of it", allocated, tc.req.Bytes)
			}
		})
	}
}

// A helper that ends without an answer gets an error saying how it ended,
// "exit status 0" for a clean exit. Before, that case read "ended without an
// answer: <nil>" (review of issue 26, item 9: a helper that wrote 500 MB to
// stderr and exited).
func TestCallSaysHowAHelperEndedWithoutAnAnswer(t *testing.T) {
	t.Parallel()
	var resp map[string]any
	err := Call(t.Context(), fakeHelper, fakeRequest{Mode: "silent", Dir: t.TempDir()}, &resp, Options{})
	if err == nil || !strings.Contains(err.Error(), "ended without an answer (exit status 0)") || strings.Contains(err.Error(), "<nil>") {
		t.Errorf("Call = %v; want an error saying the helper ended without an answer, with exit status 0", err)
	}
}

// A helper that ignores SIGINT and started a child that does too is killed,
// its whole process group, at the deadline plus the grace, or the grace
// after the caller gave up (issue 26, item 8). Before, Call waited for it
// as long as it ran.
func TestCallEndsAHelperThatWillNotStop(t *testing.T) {
	t.Parallel()
	testproc.NeedProc(t)
	for _, tc := range []struct {
		name     string
		deadline time.Duration
		giveUp   bool
		want     error
	}{
		{"deadline", 300 * time.Millisecond, false, context.DeadlineExceeded},
		{"caller gave up", 0, true, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A loaded machine may take longer than the deadline to start the
			// helper: then it is killed before it writes its pid, and the
			// attempt is made again with a four times longer deadline.
			var helper, child int
			var err error
			for attempt, deadline := 0, tc.deadline; ; attempt, deadline = attempt+1, deadline*4 {
				var started bool
				helper, child, started, err = callHangingHelper(t, deadline, tc.giveUp)
				if started || attempt == 3 {
					if !started {
						t.Fatalf("the helper never started within a deadline of %v", deadline)
					}
					break
				}
				t.Logf("the helper did not start within a deadline of %v; trying %v", deadline, deadline*4)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("Call = %v; want %v", err, tc.want)
			}
			t.Logf("Call = %v", err)
			testproc.WaitGone(t, helper, 30*time.Second)
			testproc.WaitGone(t, child, 30*time.Second)
		})
	}
}

// callHangingHelper calls a helper that ignores SIGINT and starts a child
// that does too, with deadline (none when 0), cancelling the call once both
// run when giveUp is set. It returns their pids and Call's error, and
// started=false when Call ended before the helper wrote its pid (the machine
// took longer than the deadline to start it).
func callHangingHelper(t *testing.T, deadline time.Duration, giveUp bool) (helper, child int, started bool, err error) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		var resp map[string]any
		done <- Call(ctx, fakeHelper, fakeRequest{Mode: "hang", Dir: dir}, &resp, Options{Deadline: deadline, Grace: 300 * time.Millisecond})
	}()
	readPID := func(name string) (int, bool) {
		for {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
					return pid, true
				}
			}
			select {
			case err := <-done:
				done <- err // Call ended before the pid was written
				return 0, false
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	var ok bool
	if helper, ok = readPID("helper.pid"); ok {
		child, ok = readPID("child.pid")
	}
	if !ok {
		return 0, 0, false, <-done
	}
	t.Cleanup(func() { testproc.Kill(helper); testproc.Kill(child) })
	if giveUp {
		cancel()
	}
	select {
	case err = <-done:
	case <-time.After(60 * time.Second): // the helper sleeps 600 s; the call should end after the deadline and the grace
		t.Fatal("Call still waits for a helper that ignores SIGINT")
	}
	return helper, child, true, err
}
