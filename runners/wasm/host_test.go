package wasm_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/runners/runnertest"
)

var (
	helperOnce sync.Once
	helperPath string
	helperErr  error
)

// helper returns cmd/skills-mcp-wasm built once per test process, in the
// guests' build directory.
func helper(tb testing.TB) string {
	tb.Helper()
	guest(tb)
	helperOnce.Do(func() {
		root, err := repoRoot()
		if err != nil {
			helperErr = err
			return
		}
		helperPath = filepath.Join(buildDir, wasmproc.HelperName)
		cmd := exec.Command("go", "build", "-o", helperPath, "./cmd/skills-mcp-wasm")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			helperErr = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if helperErr != nil {
		tb.Fatalf("building %s: %v", wasmproc.HelperName, helperErr)
	}
	return helperPath
}

// procRunner is the server's .wasm runner: each run in the real helper.
func procRunner(tb testing.TB, engine wasmproc.Engine) *wasmproc.Runner {
	tb.Helper()
	if engine.CacheDir == "" {
		engine.CacheDir = sharedCacheDir(tb)
	}
	r := wasmproc.New(wasmproc.Options{Engine: engine, Helper: helper(tb)})
	tb.Cleanup(func() { _ = r.Close(context.Background()) })
	return r
}

// The runner of the server, a child process per run, behaves as the engine's
// runner does: the conformance suite of every runner.
func TestHostConformance(t *testing.T) {
	runnertest.Run(t, procRunner(t, wasmproc.Engine{MemoryLimitPages: 64 * 16, WritableRoots: []string{os.TempDir()}}), fixtures{})
}

// Errors keep their meaning across the process boundary: a cwd outside the
// writable roots is an invalid argument, the module the core opened
// (RunRequest.Script, confined by the server) is the one whose bytes run, and a helper that is
// not installed is an error naming it.
func TestHostErrorsAndModuleHandOver(t *testing.T) {
	r := procRunner(t, wasmproc.Engine{WritableRoots: []string{t.TempDir()}})
	req := probeSkill(t, "exit", map[string]string{"code": "7"})
	outside := req
	outside.Dir = t.TempDir()
	if _, err := r.Run(context.Background(), outside); !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), "wasm.cwd_roots") {
		t.Errorf("cwd outside the roots: %v, want ErrInvalidArgument naming wasm.cwd_roots", err)
	}

	opened := req
	opened.ScriptPath = filepath.Join(t.TempDir(), "elsewhere.wasm") // not read: the opened file is
	f, err := os.Open(req.ScriptPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opened.Script = f
	if res, err := r.Run(context.Background(), opened); err != nil || res.ExitCode != 7 {
		t.Errorf("module sent by the server: %+v, %v; want exit 7", res, err)
	}

	missing := wasmproc.New(wasmproc.Options{Helper: filepath.Join(t.TempDir(), wasmproc.HelperName)})
	if _, err := missing.Run(context.Background(), req); err == nil || !strings.Contains(err.Error(), wasmproc.HelperName) {
		t.Errorf("helper absent: %v, want an error naming it", err)
	}
}

// Cancelling the caller's context stops the helper's module and returns the
// partial result with an error wrapping context.Canceled (SIGINT to the
// helper, which answers).
func TestHostCancelKeepsPartialOutput(t *testing.T) {
	r := procRunner(t, wasmproc.Engine{})
	req := skillWith(t, string(runnertest.SleepForever)+".wasm")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(2*time.Second, cancel)
	res, err := r.Run(ctx, req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: %+v, %v; want context.Canceled", res, err)
	}
	if res.Stdout != "started\n" && res.Stdout != "" { // "" when the cancel came before the module began
		t.Errorf("partial stdout %q, want %q", res.Stdout, "started\n")
	}
}

// Runs one after the other reuse a helper and runs at the same time get one
// each; after Close the runner still runs (in a new helper).
func TestHostRunsInSequenceAndAtOnce(t *testing.T) {
	r := procRunner(t, wasmproc.Engine{})
	for i := range 3 {
		req := probeSkill(t, "exit", map[string]string{"code": strconv.Itoa(i)})
		if res, err := r.Run(context.Background(), req); err != nil || res.ExitCode != i {
			t.Fatalf("run %d: %+v, %v", i, res, err)
		}
	}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			req := probeSkill(t, "exit", map[string]string{"code": strconv.Itoa(10 + i)})
			if res, err := r.Run(context.Background(), req); err != nil || res.ExitCode != 10+i {
				t.Errorf("concurrent run %d: %+v, %v", i, res, err)
			}
		})
	}
	wg.Wait()
	_ = r.Close(context.Background())
	if res, err := r.Run(context.Background(), probeSkill(t, "exit", map[string]string{"code": "5"})); err != nil || res.ExitCode != 5 {
		t.Errorf("run after Close: %+v, %v", res, err)
	}
}
