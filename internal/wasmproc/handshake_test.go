package wasmproc_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/buildinfo"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/internal/wasmtest"
)

// The server runs modules in a helper of its own build only: the helper of
// this build runs the module; a real skills-mcp-wasm stamped with another
// version, and one older than the handshake, are refused before any run,
// with an error naming both builds and where the helper is.
func TestHelperOfAnotherBuildIsRefused(t *testing.T) {
	t.Parallel()
	this := strconv.Quote(buildinfo.String()) + ", protocol " + strconv.Itoa(wasmproc.Protocol)
	const other = "v0.0.0-handshake-test"
	skill := t.TempDir()
	if err := os.WriteFile(filepath.Join(skill, "nap.wasm"), wasmtest.SleepModule(time.Millisecond), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		helper func(t *testing.T) string
		want   []string // in the error; none: the module runs
	}{
		{"this build", func(*testing.T) string { return helperPath }, nil},
		{"another version", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), wasmproc.HelperName)
			build := exec.Command("go", "build", "-ldflags", "-X github.com/skills-mcp/skills-mcp/internal/buildinfo.version="+other, "-o", path, "../../cmd/skills-mcp-wasm")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("building %s: %v\n%s", wasmproc.HelperName, err, out)
			}
			return path
		}, []string{strconv.Quote(other) + ", protocol " + strconv.Itoa(wasmproc.Protocol), this}},
		{"older than the handshake", func(*testing.T) string { return "testdata/older/" + wasmproc.HelperName }, []string{"did not say its version", this}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			helper, err := filepath.Abs(tc.helper(t))
			if err != nil {
				t.Fatal(err)
			}
			r := wasmproc.New(wasmproc.Options{Helper: helper})
			defer r.Close(context.Background())
			res, err := r.Run(t.Context(), core.RunRequest{ScriptPath: filepath.Join(skill, "nap.wasm"), File: "nap.wasm", SkillDir: skill, Timeout: time.Minute})
			t.Logf("Run = %+v, %v", res, err)
			if tc.want == nil {
				if err != nil || res.ExitCode != 0 {
					t.Errorf("Run in a helper of this build = %+v, %v; want exit 0", res, err)
				}
				return
			}
			if !errors.Is(err, childproc.ErrMismatch) {
				t.Fatalf("Run = %v, want an error wrapping childproc.ErrMismatch", err)
			}
			for _, w := range append(tc.want, helper) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Run = %v, want it to name %s", err, w)
				}
			}
		})
	}
}
