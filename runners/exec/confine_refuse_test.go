package exec_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestConfinedRunnerRefusesWhereConfinementFails: where scripts cannot be
// confined (another OS, a kernel without Landlock or user namespaces; here a
// launcher that does not confine itself stands for them), the confined
// runner refuses to run the script, naming the reason and
// SKILLS_SCRIPTS_SANDBOX=none, and nothing runs.
func TestConfinedRunnerRefusesWhereConfinementFails(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	for _, launcher := range []string{"/bin/false", "/bin/true"} {
		t.Run(filepath.Base(launcher), func(t *testing.T) {
			t.Parallel()
			if _, err := os.Stat(launcher); err != nil {
				t.Skipf("no %s", launcher)
			}
			conf, err := launch.NewConfinement(launch.ConfineOptions{Launcher: launcher})
			if err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(t.TempDir(), "ran")
			req := request(t, "s.sh", "touch "+marker+"\n", nil)
			_, err = newRunner(t, "bash", exec.WithConfinement(public(conf))).Run(t.Context(), req)
			if !errors.Is(err, launch.ErrUnconfinable) || !strings.Contains(err.Error(), "SKILLS_SCRIPTS_SANDBOX=none") {
				t.Errorf("Run = %v; want an error wrapping ErrUnconfinable that names SKILLS_SCRIPTS_SANDBOX=none", err)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the script ran although it could not be confined")
			}
		})
	}
}
