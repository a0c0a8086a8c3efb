package gitsync

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/testproc"
)

// hangingHelper answers the check and hangs on every sync, deaf to SIGINT.
const hangingHelper = "testdata/hanging/" + HelperName

// hangingSyncer is a Syncer of dir whose helper is hangingHelper.
func hangingSyncer(t *testing.T, dir string, timeout time.Duration) *Syncer {
	t.Helper()
	helper, err := filepath.Abs(hangingHelper)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Source: Source{URL: "https://example.invalid/skills.git", Dir: dir, Timeout: timeout}, Helper: helper})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A helper that hangs on a refresh and ignores SIGINT is ended by the
// server at the git timeout plus the margin, itself and what it started, and
// the refresh fails with an error naming the timeout (issue 26, item 8).
// Before, the refresh waited as long as the helper ran (refresh_skills still
// unanswered after 40 s with a 3 s git timeout).
func TestHangingHelperIsEnded(t *testing.T) {
	t.Parallel()
	testproc.NeedProc(t)
	dir := t.TempDir()
	s := hangingSyncer(t, dir, 300*time.Millisecond)
	s.margin, s.grace = 200*time.Millisecond, 300*time.Millisecond
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := s.ForceRefresh(context.Background())
		done <- err
	}()
	helper := testproc.ReadPID(t, filepath.Join(dir, "helper.pid"), 30*time.Second)
	child := testproc.ReadPID(t, filepath.Join(dir, "child.pid"), 30*time.Second)
	t.Cleanup(func() { testproc.Kill(helper); testproc.Kill(child) })
	select {
	case err := <-done:
		t.Logf("ForceRefresh failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not answer within 500ms") ||
			!strings.Contains(err.Error(), "refresh.git_timeout_seconds") {
			t.Errorf("ForceRefresh = %v; want a deadline error naming the git timeout", err)
		}
	case <-time.After(60 * time.Second): // the helper sleeps 600 s; the server gives up after 0.8 s
		t.Fatal("ForceRefresh still waits for the hanging helper")
	}
	testproc.WaitGone(t, helper, 30*time.Second)
	testproc.WaitGone(t, child, 30*time.Second)
}

// serveEnv names, in the test binary started by TestHelperDiesWithTheServer,
// the directory of the refresh it runs as the server.
const serveEnv = "GITPROC_TEST_SERVE_DIR"

// A helper does not outlive the server, however the server ends: kill -9
// the server during a refresh whose helper hangs, deaf to SIGINT and
// SIGTERM, and the helper ends with it (issue 26, item 8). Before, it ran on
// (10 minutes after SIGTERM in the review).
func TestHelperDiesWithTheServer(t *testing.T) {
	if dir := os.Getenv(serveEnv); dir != "" { // the server: a refresh that only its death ends
		_, _ = hangingSyncer(t, dir, time.Hour).ForceRefresh(context.Background())
		return
	}
	t.Parallel()
	testproc.NeedProc(t)
	dir := t.TempDir()
	server := exec.Command(os.Args[0], "-test.run=^TestHelperDiesWithTheServer$", "-test.count=1")
	server.Env = append(os.Environ(), serveEnv+"="+dir)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
	helper := testproc.ReadPID(t, filepath.Join(dir, "helper.pid"), 60*time.Second)
	child := testproc.ReadPID(t, filepath.Join(dir, "child.pid"), 30*time.Second)
	t.Cleanup(func() { testproc.Kill(helper); testproc.Kill(child) })
	if err := server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	killed := time.Now()
	testproc.WaitGone(t, helper, 30*time.Second) // the kernel's signal is immediate; 30 s is for a loaded machine
	t.Logf("the helper was gone %v after the server", time.Since(killed).Round(time.Millisecond))
}
