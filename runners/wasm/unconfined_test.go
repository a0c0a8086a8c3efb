package wasm_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/runners/exec"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// Issue 28: where native scripts cannot be confined (another OS, a kernel
// without Landlock or user namespaces; here a launcher that fails stands for
// them), the exec runner refuses, naming SKILLS_SCRIPTS_SANDBOX=none, while a
// .wasm script still runs: wazero's sandbox needs nothing of the kernel. Both
// go through the core's wrapper, as run_script sends them.
func TestWasmRunsWhereNativeConfinementFails(t *testing.T) {
	t.Parallel()
	bash := testenv.RequireTool(t, "bash")
	conf, err := launch.NewConfinement(launch.ConfineOptions{Launcher: "/bin/false"})
	if err != nil {
		t.Fatal(err)
	}
	native, err := exec.New(bash, exec.WithConfinement(launch.Public(conf).(*sandbox.Confinement)))
	if err != nil {
		t.Fatal(err)
	}
	runs := scripts.NewRuns(2, nil, nil)

	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	if err := os.WriteFile(filepath.Join(dir, "s.sh"), []byte("touch "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh := core.RunRequest{ScriptPath: filepath.Join(dir, "s.sh"), File: "s.sh", SkillDir: dir, Dir: dir, Args: map[string]string{}}
	if _, err := runs.RunFile(t.Context(), native, sh); !errors.Is(err, sandbox.ErrUnconfinable) || !strings.Contains(err.Error(), "SKILLS_SCRIPTS_SANDBOX=none") {
		t.Errorf("the .sh script: %v, want an error wrapping ErrUnconfinable naming SKILLS_SCRIPTS_SANDBOX=none", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the .sh script ran although it could not be confined")
	}

	res, err := runs.RunFile(t.Context(), procRunner(t, wasmproc.Engine{}), probeSkill(t, "exit", map[string]string{"code": "0"}))
	if err != nil || res.ExitCode != 0 {
		t.Errorf("the .wasm script: %+v, %v; want it run, exit 0", res, err)
	}
}
