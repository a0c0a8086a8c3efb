package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// BenchmarkRunNative is the native counterpart of runners/wasm's
// BenchmarkRunCold/BenchmarkRunCached: one bash script that exits 0, through
// the whole runner (process group, pipes, minimal env).
func BenchmarkRunNative(b *testing.B) {
	dir := b.TempDir()
	script := filepath.Join(dir, "exit.sh")
	if err := os.WriteFile(script, []byte("exit 0\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := exec.New("bash")
	if err != nil {
		b.Fatal(err)
	}
	req := core.RunRequest{ScriptPath: script, File: "exit.sh", SkillDir: dir, Dir: dir, MaxOutputBytes: 1 << 20}
	for b.Loop() {
		res, err := r.Run(context.Background(), req)
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("Run: exit %d, err %v", res.ExitCode, err)
		}
	}
}
