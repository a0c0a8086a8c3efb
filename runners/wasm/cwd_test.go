package wasm_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

// tempWritable lets the tests' t.TempDir() working directories be mounted at
// /cwd, as wasm.cwd_roots would list a project directory.
var tempWritable = wasm.WithWritableRoots([]string{os.TempDir()})

// TestCwdOutsideWritableRootsIsRefused: run_script's caller chooses cwd, so a
// .wasm script gets a writable /cwd only under wasm.cwd_roots; "/" would
// otherwise hand the guest the whole host, read-write.
func TestCwdOutsideWritableRootsIsRefused(t *testing.T) {
	r := newRunner(t, wasm.WithWritableRoots([]string{t.TempDir()}))
	for _, dir := range []string{"/", os.TempDir()} {
		req := probeSkill(t, "exit", map[string]string{"code": "0"})
		req.Dir = dir
		_, err := r.Run(context.Background(), req)
		if !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), "wasm.cwd_roots") {
			t.Errorf("cwd %s: got %v, want a refusal naming wasm.cwd_roots", dir, err)
		}
	}
	// The skill directory itself needs no /cwd mount and is always fine.
	req := probeSkill(t, "exit", map[string]string{"code": "0"})
	req.Dir = req.SkillDir
	if res, err := r.Run(context.Background(), req); err != nil || res.ExitCode != 0 {
		t.Errorf("cwd = skill dir: %v %+v", err, res)
	}
}
