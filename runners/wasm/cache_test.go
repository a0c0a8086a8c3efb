package wasm_test

import (
	"context"
	"os"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

// TestChangedModuleRunsNewCode writes two different programs to the same path
// in turn: each run must execute the bytes on disk, not a stale compilation.
func TestChangedModuleRunsNewCode(t *testing.T) {
	r := newRunner(t, tempWritable)
	req := probeSkill(t, "exit", map[string]string{"code": "7"})
	goGuest, err := os.ReadFile(req.ScriptPath)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		module []byte
		want   int
	}{
		{"go guest", goGuest, 7},
		{"replaced by another program", exit42Module, 42},
		{"go guest again", goGuest, 7},
		{"another program again", exit42Module, 42},
	}
	for _, step := range steps {
		if err := os.WriteFile(req.ScriptPath, step.module, 0o644); err != nil {
			t.Fatal(err)
		}

		res := run(t, r, req)

		if res.ExitCode != step.want {
			t.Errorf("%s: exit code = %d, want %d (stderr %q)", step.name, res.ExitCode, step.want, res.Stderr)
		}
	}
}

// BenchmarkRunCold pays for compiling the module on every run: a new engine
// each iteration, no compilation cache on disk.
func BenchmarkRunCold(b *testing.B) {
	req := benchRequest(b)
	for b.Loop() {
		r, err := wasm.New()
		if err != nil {
			b.Fatal(err)
		}
		benchRun(b, r, req)
		_ = r.Close(context.Background())
	}
}

// BenchmarkRunCached runs the same module on one engine: compiled once, then
// only instantiated.
func BenchmarkRunCached(b *testing.B) {
	r, err := wasm.New()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close(context.Background())
	req := benchRequest(b)
	benchRun(b, r, req) // compile outside the measurement
	b.ResetTimer()
	for b.Loop() {
		benchRun(b, r, req)
	}
}

func benchRequest(b *testing.B) core.RunRequest {
	return probeSkill(b, "exit", map[string]string{"code": "0"})
}

func benchRun(b *testing.B, r *wasm.Runner, req core.RunRequest) {
	res, err := r.Run(context.Background(), req)
	if err != nil || res.ExitCode != 0 {
		b.Fatalf("Run: exit %d, err %v, stderr %q", res.ExitCode, err, res.Stderr)
	}
}
