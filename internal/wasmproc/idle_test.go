package wasmproc_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/internal/wasmtest"
)

// helperPath is skills-mcp-wasm, built once for this package's tests.
var helperPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wasmproc-test-")
	if err != nil {
		panic(err)
	}
	helperPath = filepath.Join(dir, wasmproc.HelperName)
	if out, err := exec.Command("go", "build", "-o", helperPath, "../../cmd/skills-mcp-wasm").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		panic(fmt.Sprintf("building %s: %v\n%s", wasmproc.HelperName, err, out))
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// helpers counts the live helper processes this test process started.
func helpers(t *testing.T) int {
	t.Helper()
	n, ok := wasmtest.Children(os.Getpid(), wasmproc.HelperName)
	if !ok {
		t.Skip("no /proc to count processes with")
	}
	return n
}

// poll waits for done, failing after limit.
func poll(t *testing.T, what string, limit time.Duration, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestIdleHelpersAreBounded: four runs at once start four helpers; once they
// end, at most MaxIdle of them are kept warm, the others end (issue 26, item
// 7: 32 concurrent runs left 32 helpers, 2.4 GB, idle for 30 s).
func TestIdleHelpersAreBounded(t *testing.T) {
	const runs, maxIdle = 4, 2
	skill := t.TempDir()
	if err := os.WriteFile(filepath.Join(skill, "sleep.wasm"), wasmtest.SleepModule(time.Minute), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wasmproc.New(wasmproc.Options{Helper: helperPath, MaxIdle: maxIdle})
	defer r.Close(context.Background())
	if n := helpers(t); n != 0 {
		t.Fatalf("%d helpers before any run", n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	for range runs {
		wg.Go(func() {
			req := core.RunRequest{ScriptPath: filepath.Join(skill, "sleep.wasm"), File: "sleep.wasm", SkillDir: skill, Timeout: 2 * time.Minute}
			_, _ = r.Run(ctx, req) // cancelled below: the helper answers with the partial result
		})
	}
	poll(t, fmt.Sprintf("%d helpers, one per run", runs), time.Minute, func() bool { return helpers(t) == runs })
	cancel() // every run ends and its helper goes back to the pool
	wg.Wait()
	// A helper ended when the pool is full exits as soon as its stdin
	// closes, in milliseconds; a kept one would live IdleTimeout (30 s). 10 s
	// tells them apart on a loaded machine.
	poll(t, fmt.Sprintf("at most %d helpers kept", maxIdle), 10*time.Second, func() bool { return helpers(t) <= maxIdle })
	if n := helpers(t); n != maxIdle {
		t.Errorf("%d helpers kept warm, want %d", n, maxIdle)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	poll(t, "no helper after Close", 10*time.Second, func() bool { return helpers(t) == 0 })
}

// TestSleepModuleRuns checks the fixture the helper tests rely on: the
// assembled module runs and exits 0.
func TestSleepModuleRuns(t *testing.T) {
	skill := t.TempDir()
	if err := os.WriteFile(filepath.Join(skill, "nap.wasm"), wasmtest.SleepModule(time.Millisecond), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wasmproc.New(wasmproc.Options{Helper: helperPath})
	defer r.Close(context.Background())
	res, err := r.Run(t.Context(), core.RunRequest{ScriptPath: filepath.Join(skill, "nap.wasm"), File: "nap.wasm", SkillDir: skill, Timeout: time.Minute})
	if err != nil || res.ExitCode != 0 || res.TimedOut {
		t.Fatalf("Run = %+v, %v; want exit 0", res, err)
	}
}
