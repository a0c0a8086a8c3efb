package exec_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestScriptCheckedAtStart: the runner starts the script only if its path
// still leads to the file OpenScript opens confined to the skills directory
// (issue 16, item 1); a path that leads elsewhere by then (a folder swapped
// for a symlink) is refused and nothing runs.
func TestScriptCheckedAtStart(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	marker := filepath.Join(t.TempDir(), "ran")
	req := request(t, "s.sh", "touch "+marker+"\necho ran\n", nil)
	confined := req.ScriptPath
	req.OpenScript = func() (*os.File, error) { return os.Open(confined) }
	if res := runOK(t, newRunner(t, "bash"), req); res.Stdout != "ran\n" {
		t.Fatalf("the confined script did not run: %+v", res)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	// The path now leads to another file than the confined one.
	other := request(t, "s.sh", "touch "+marker+"\necho outside\n", nil)
	req.ScriptPath = other.ScriptPath
	_, err := newRunner(t, "bash").Run(t.Context(), req)
	if !errors.Is(err, core.ErrPathTraversal) {
		t.Errorf("Run = %v, want ErrPathTraversal", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the script ran although its path left the skills directory")
	}
}
