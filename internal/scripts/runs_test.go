package scripts_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/testproc"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// writeTree writes files (slash paths relative to a fresh directory) and
// returns the directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustContain(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("got %q, want it to contain %q", got, w)
		}
	}
}

// TestWaitingRunGetsAtLimitError: a run that finds no free slot within its
// own timeout gets an error saying the server is at its limit and naming
// the variable; it never starts. A run whose caller gives up while it waits
// gets the caller's error. The slot of the run that held it is freed.
func TestWaitingRunGetsAtLimitError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	skills := writeTree(t, testproc.HeldTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: skills, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	snap, err := idx.Rebuild(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	r, err := exec.New("bash", exec.WithGrace(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	runners := core.NewRegistry[core.Runner]("runner")
	runners.Register(".sh", r)
	cfg := config.Default().Scripts
	prepare := func(file string, args map[string]string, timeout time.Duration) scripts.Prepared {
		t.Helper()
		p, err := scripts.Prepare(snap, cfg, runners, nil, scripts.Args{SkillPath: "held", File: file, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		p.Request.Timeout = timeout
		return p
	}
	runs := scripts.NewRuns(1, nil, nil)
	held := make(chan error, 1)
	go func() {
		_, err := runs.Run(t.Context(), prepare("scripts/held.sh", map[string]string{"dir": dir, "id": "a"}, time.Minute))
		held <- err
	}()
	testproc.Poll(t, "the first run", func() bool { return len(testproc.Running(t, dir)) == 1 })

	quick := map[string]string{"dir": dir}
	_, err = runs.Run(t.Context(), prepare("scripts/quick.sh", quick, time.Second))
	if !errors.Is(err, core.ErrRunLimit) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want an error wrapping core.ErrRunLimit and context.DeadlineExceeded", err)
	}
	mustContain(t, fmt.Sprint(err), "at its limit of 1 script(s) running at once", scripts.MaxConcurrentEnv)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := runs.Run(ctx, prepare("scripts/quick.sh", quick, time.Minute)); !errors.Is(err, context.Canceled) {
		t.Errorf("caller gone while waiting: got %v, want an error wrapping context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "quick-ran")); err == nil {
		t.Fatal("a run that got no slot ran")
	}

	testproc.Release(t, dir, "a")
	if err := <-held; err != nil {
		t.Fatalf("the held run: %v", err)
	}
	if res, err := runs.Run(t.Context(), prepare("scripts/quick.sh", quick, time.Minute)); err != nil || res.ExitCode != 0 {
		t.Fatalf("after the slot is freed: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "quick-ran")); err != nil {
		t.Errorf("the run after the slot was freed did not run: %v", err)
	}
}
