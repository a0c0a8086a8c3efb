package gitsync

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/buildinfo"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// otherVersion is the version stamped into a helper built for another
// release than this test's server.
const otherVersion = "v0.0.0-handshake-test"

// buildHelper builds cmd/skills-mcp-git into a temporary directory with
// ldflags, and returns its path.
func buildHelper(t *testing.T, ldflags string) string {
	t.Helper()
	testenv.RequireTool(t, "go")
	path := filepath.Join(t.TempDir(), HelperName)
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", path, "../../cmd/skills-mcp-git").CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", HelperName, err, out)
	}
	return path
}

// The server uses a helper of its own build only: a real skills-mcp-git
// stamped with another version, and one older than the handshake, are
// refused at New with an error naming both builds and where the helper is.
func TestHelperOfAnotherBuildIsRefused(t *testing.T) {
	t.Parallel()
	this := strconv.Quote(buildinfo.String()) + ", protocol " + strconv.Itoa(Protocol)
	for _, tc := range []struct {
		name   string
		helper func(t *testing.T) string
		want   []string // in the error; none: accepted
	}{
		{"this build", func(*testing.T) string { return hangingHelper }, nil},
		{"another version", func(t *testing.T) string {
			return buildHelper(t, "-X github.com/skills-mcp/skills-mcp/internal/buildinfo.version="+otherVersion)
		}, []string{strconv.Quote(otherVersion) + ", protocol " + strconv.Itoa(Protocol), this}},
		{"older than the handshake", func(*testing.T) string { return "testdata/older/" + HelperName }, []string{"did not say its version", this}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			helper, err := filepath.Abs(tc.helper(t))
			if err != nil {
				t.Fatal(err)
			}
			_, err = New(Options{Source: Source{URL: "https://example.invalid/skills.git", Dir: t.TempDir()}, Helper: helper})
			t.Logf("New = %v", err)
			if tc.want == nil {
				if err != nil {
					t.Errorf("New with a helper of this build = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, childproc.ErrMismatch) {
				t.Fatalf("New = %v, want an error wrapping childproc.ErrMismatch", err)
			}
			for _, w := range append(tc.want, helper) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("New = %v, want it to name %s", err, w)
				}
			}
		})
	}
}
