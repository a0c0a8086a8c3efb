package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

func newTestEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	e, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { _ = e.Close(context.Background()) })
	return e
}

func testRun(t *testing.T, module []byte) ModuleRun {
	t.Helper()
	return ModuleRun{Module: module, Name: "test.wasm", SkillDir: t.TempDir()}
}

func TestWasmEngineRunEnds(t *testing.T) {
	e := newTestEngine(t, Options{})
	tests := []struct {
		name   string
		module []byte
		want   ModuleExit
	}{
		{"_start returns", returnModule(), ModuleExit{}},
		{"proc_exit(0)", exitModule(0), ModuleExit{}},
		{"proc_exit(7)", exitModule(7), ModuleExit{ExitCode: 7}},
		{"proc_exit(300)", exitModule(300), ModuleExit{ExitCode: 300}},
		{"trap", trapModule(), ModuleExit{ExitCode: TrapExitCode, Notes: []string{"[skills-mcp] wasm module trapped: wasm error: unreachable"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Run(context.Background(), testRun(t, tt.module))

			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestWasmEngineStopsAtDeadline(t *testing.T) {
	e := newTestEngine(t, Options{})
	timedOut := ModuleExit{ExitCode: core.TimeoutExitCode, TimedOut: true, Notes: []string{core.TimeoutMarker}}
	tests := []struct {
		name    string
		timeout time.Duration
		ctx     func(t *testing.T) context.Context
		want    ModuleExit
		wantErr error
	}{
		{"run timeout", 100 * time.Millisecond, func(*testing.T) context.Context { return context.Background() }, timedOut, nil},
		{"ctx deadline", 0, func(t *testing.T) context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			t.Cleanup(cancel)
			return ctx
		}, timedOut, nil},
		{"ctx cancelled", 0, func(t *testing.T) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			timer := time.AfterFunc(100*time.Millisecond, cancel)
			t.Cleanup(func() { timer.Stop() })
			return ctx
		}, ModuleExit{ExitCode: core.TimeoutExitCode}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun(t, loopModule())
			run.Timeout = tt.timeout

			got, err := e.Run(tt.ctx(t), run)

			if !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestWasmEngineRefusesToStart(t *testing.T) {
	e := newTestEngine(t, Options{})
	tests := []struct {
		name     string
		edit     func(*ModuleRun)
		wantText string
	}{
		{"not wasm", func(r *ModuleRun) { r.Module = []byte("#!/bin/sh") }, "compiling wasm module test.wasm"},
		{"truncated module", func(r *ModuleRun) { r.Module = exitModule(1)[:20] }, "compiling wasm module test.wasm"},
		{"no _start", func(r *ModuleRun) { r.Module = r.Module[:8] }, "exports no _start"},
		{"no skill dir", func(r *ModuleRun) { r.SkillDir = "" }, "no skill directory"},
		{"missing skill dir", func(r *ModuleRun) { r.SkillDir = filepath.Join(r.SkillDir, "gone") }, "mounting"},
		{"missing working dir", func(r *ModuleRun) { r.Dir = filepath.Join(r.SkillDir, "gone") }, "mounting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun(t, exitModule(0))
			tt.edit(&run)

			_, err := e.Run(context.Background(), run)

			if err == nil || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantText)
			}
		})
	}
}

func TestNewWasmEngineChecksMounts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		mounts  map[string]string
		wantErr string
	}{
		{"none", nil, ""},
		{"valid", map[string]string{"/data": dir, "/opt/ref": dir}, ""},
		{"relative guest path", map[string]string{"data": dir}, "absolute"},
		{"unclean guest path", map[string]string{"/a/../data": dir}, "clean"},
		{"root", map[string]string{"/": dir}, "reserved"},
		{"skill", map[string]string{SkillMount: dir}, "reserved"},
		{"cwd", map[string]string{CwdMount: dir}, "reserved"},
		{"missing host dir", map[string]string{"/data": filepath.Join(dir, "gone")}, "no such file"},
		{"host file", map[string]string{"/data": file}, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(context.Background(), Options{Mounts: tt.mounts})
			if e != nil {
				defer e.Close(context.Background())
			}

			if tt.wantErr == "" && err != nil {
				t.Errorf("error = %v, want none", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestWasmEngineMemoryLimit(t *testing.T) {
	tests := []struct {
		name  string
		pages uint32
		want  uint64
	}{
		{"zero means the wasm32 maximum", 0, 4 << 30},
		{"64 MiB", 64 * 16, 64 << 20},
		{"above the maximum", 1 << 20, 4 << 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEngine(t, Options{MemoryLimitPages: tt.pages})

			if got := e.MemoryLimitBytes(); got != tt.want {
				t.Errorf("MemoryLimitBytes() = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestWasmEngineCacheDir(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		dir       string
		wantFiles bool
	}{
		{"writable dir keeps compiled code", filepath.Join(t.TempDir(), "cache"), true},
		{"unwritable dir falls back to memory", filepath.Join(blocker, "cache"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEngine(t, Options{CacheDir: tt.dir})

			got, err := e.Run(context.Background(), testRun(t, exitModule(5)))

			if err != nil || got.ExitCode != 5 {
				t.Fatalf("Run: exit %d, err %v, want exit 5", got.ExitCode, err)
			}
			if files := countFiles(tt.dir); (files > 0) != tt.wantFiles {
				t.Errorf("files in %s: got %d, want files present = %v", tt.dir, files, tt.wantFiles)
			}
		})
	}
}

func countFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func TestWasmEngineConcurrentRuns(t *testing.T) {
	e := newTestEngine(t, Options{})
	const runs = 8
	got := make([]int, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			// Half the runs share one module, so instances of it coexist.
			code := int32(i)
			if i%2 == 0 {
				code = 100
			}
			exit, err := e.Run(context.Background(), testRun(t, exitModule(code)))
			got[i], errs[i] = exit.ExitCode, err
		})
	}
	wg.Wait()
	for i := range runs {
		want := i
		if i%2 == 0 {
			want = 100
		}
		if errs[i] != nil || got[i] != want {
			t.Errorf("run %d: exit %d, err %v, want exit %d", i, got[i], errs[i], want)
		}
	}
}

// TestWasmEngineStartsOnFirstRun: the runtime is made by the first run, not
// by New; an engine closed before any run closes without one, and
// refuses to start afterwards.
func TestWasmEngineStartsOnFirstRun(t *testing.T) {
	t.Run("first run starts it", func(t *testing.T) {
		e := newTestEngine(t, Options{})
		if e.runtime != nil {
			t.Fatal("New made a runtime before any run")
		}
		if got, err := e.Run(context.Background(), testRun(t, returnModule())); err != nil || got.ExitCode != 0 {
			t.Fatalf("first run: got %+v, %v", got, err)
		}
		if e.runtime == nil {
			t.Fatal("no runtime after a run")
		}
	})
	t.Run("closed before any run", func(t *testing.T) {
		e, err := New(context.Background(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Close(context.Background()); err != nil {
			t.Fatalf("Close of an engine never started: %v", err)
		}
		if _, err := e.Run(context.Background(), testRun(t, returnModule())); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Fatalf("run after Close: got %v, want an error saying the engine is closed", err)
		}
	})
}
