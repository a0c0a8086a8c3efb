package scripts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// runnerFunc is an in-process runner made of a function.
type runnerFunc func(ctx context.Context, req core.RunRequest) (core.RunResult, error)

func (f runnerFunc) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	return f(ctx, req)
}

// fileRequest writes a script with body into a fresh skill directory and
// returns a request for it.
func fileRequest(t *testing.T, body string, timeout time.Duration, maxOutput int64) core.RunRequest {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return core.RunRequest{ScriptPath: filepath.Join(dir, "s.txt"), File: "s.txt", SkillDir: dir, Dir: dir,
		Timeout: timeout, MaxOutputBytes: maxOutput}
}

// TestWrapperBoundsInProcessRunners: what the wrapper gives a runner with no
// code of its own (issue 27): the script handed over open, a timeout as
// ctx's deadline turned into a timed-out result, output streams and
// returned streams capped with the note, a panic turned into an error.
func TestWrapperBoundsInProcessRunners(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		runner  runnerFunc
		timeout time.Duration
		check   func(t *testing.T, res core.RunResult, err error)
	}{
		{"reads the handed-over script", func(_ context.Context, req core.RunRequest) (core.RunResult, error) {
			b := make([]byte, 64)
			n, err := req.Script.Read(b)
			return core.RunResult{Stdout: "read " + string(b[:n])}, err
		}, 0, func(t *testing.T, res core.RunResult, err error) {
			if err != nil || res.Stdout != "read body" || res.TimedOut {
				t.Errorf("got %+v, %v; want stdout %q", res, err, "read body")
			}
		}},
		{"blocks until ctx is done", func(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
			_, _ = req.Stdout.Write([]byte("started\n"))
			<-ctx.Done()
			return core.RunResult{}, ctx.Err()
		}, 100 * time.Millisecond, func(t *testing.T, res core.RunResult, err error) {
			if err != nil || !res.TimedOut || res.ExitCode != core.TimeoutExitCode {
				t.Errorf("got %+v, %v; want a timed-out result", res, err)
			}
			if res.Stdout != "started\n" || res.Stderr != core.TimeoutMarker {
				t.Errorf("stdout %q, stderr %q; want %q and the timeout marker", res.Stdout, res.Stderr, "started\n")
			}
		}},
		{"prints without end", func(_ context.Context, req core.RunRequest) (core.RunResult, error) {
			for {
				if _, err := req.Stdout.Write([]byte("xxxxxxxx")); err != nil {
					return core.RunResult{}, err
				}
			}
		}, 100 * time.Millisecond, func(t *testing.T, res core.RunResult, err error) {
			if err != nil || !res.TimedOut || !res.StdoutTruncated {
				t.Errorf("got TimedOut %v, StdoutTruncated %v, %v; want both, no error", res.TimedOut, res.StdoutTruncated, err)
			}
			if want := strings.Repeat("x", 100) + "\n" + sandbox.TruncationNote; res.Stdout != want {
				t.Errorf("stdout %q, want %q", res.Stdout, want)
			}
		}},
		{"returns too much", func(context.Context, core.RunRequest) (core.RunResult, error) {
			return core.RunResult{Stdout: strings.Repeat("y", 100000), Stderr: "fine", ExitCode: 2}, nil
		}, 0, func(t *testing.T, res core.RunResult, err error) {
			if want := strings.Repeat("y", 100) + "\n" + sandbox.TruncationNote; err != nil || res.Stdout != want || !res.StdoutTruncated || res.ExitCode != 2 {
				t.Errorf("got %+v, %v; want stdout %q, exit 2", res, err, want)
			}
			if res.Stderr != "fine" || res.StderrTruncated {
				t.Errorf("stderr %q (truncated %v), want %q", res.Stderr, res.StderrTruncated, "fine")
			}
		}},
		{"panics", func(context.Context, core.RunRequest) (core.RunResult, error) {
			panic("boom")
		}, 0, func(t *testing.T, _ core.RunResult, err error) {
			if err == nil || !strings.Contains(err.Error(), "boom") {
				t.Errorf("got %v, want an error naming the panic", err)
			}
		}},
		{"cancelled is not timed out", func(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
			return core.RunResult{}, context.Canceled
		}, time.Minute, func(t *testing.T, res core.RunResult, err error) {
			if !errors.Is(err, context.Canceled) || res.TimedOut {
				t.Errorf("got %+v, %v; want context.Canceled, not timed out", res, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := fileRequest(t, "body", tc.timeout, 100)
			res, err := NewRuns(1, nil, nil).RunFile(t.Context(), tc.runner, req)
			tc.check(t, res, err)
		})
	}
}

// TestRunnerIgnoringItsDeadline: a runner that never returns is answered as
// timed out its grace after the deadline, with what it wrote; its slot stays
// taken until it returns, so the bound of runs at once holds.
func TestRunnerIgnoringItsDeadline(t *testing.T) {
	t.Parallel()
	runs := NewRuns(1, nil, nil)
	runs.grace = 50 * time.Millisecond
	release, returned := make(chan struct{}), make(chan struct{})
	stuck := runnerFunc(func(_ context.Context, req core.RunRequest) (core.RunResult, error) {
		defer close(returned)
		_, _ = req.Stdout.Write([]byte("before\n"))
		<-release
		if _, err := req.Stdout.Write([]byte("after\n")); err == nil {
			t.Errorf("a write after the answer: %v, want it refused", err)
		}
		return core.RunResult{}, nil
	})
	res, err := runs.RunFile(t.Context(), stuck, fileRequest(t, "body", 50*time.Millisecond, 0))
	if err != nil || !res.TimedOut || res.Stdout != "before\n" {
		t.Fatalf("got %+v, %v; want a timed-out result with %q", res, err, "before\n")
	}
	quick := runnerFunc(func(context.Context, core.RunRequest) (core.RunResult, error) { return core.RunResult{}, nil })
	if _, err := runs.RunFile(t.Context(), quick, fileRequest(t, "body", 50*time.Millisecond, 0)); !errors.Is(err, core.ErrRunLimit) {
		t.Errorf("a run while the stuck one holds its slot: %v, want ErrRunLimit", err)
	}
	close(release)
	<-returned
	// The slot is given back just after the runner returns: this run waits for it.
	if res2, err := runs.RunFile(t.Context(), quick, fileRequest(t, "body", time.Minute, 0)); err != nil || res2.ExitCode != 0 {
		t.Errorf("after the stuck runner returned: %+v, %v", res2, err)
	}
}
