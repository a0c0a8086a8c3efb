package skillscmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/validate"
)

// writeTree writes files (relative path → content) under root; a content
// starting with "->" makes a symlink to the rest.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// validateRun is one run of the real binary's validate command.
type validateRun struct {
	stdout, stderr string
	code           int
}

// runValidateBin runs `skills-mcp validate args…` as a subprocess in dir with
// a minimal environment plus env (KEY=value).
func runValidateBin(t *testing.T, dir string, env []string, args ...string) validateRun {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"validate"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running validate: %v", err)
	}
	return validateRun{stdout: out.String(), stderr: errb.String(), code: code}
}

// jsonReport is the --json output of validate.
type jsonReport struct {
	Findings []validate.Finding `json:"findings"`
}

func decodeReport(t *testing.T, r validateRun) jsonReport {
	t.Helper()
	var rep jsonReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("validate --json printed no JSON: %v\n%s%s", err, r.stdout, r.stderr)
	}
	return rep
}

// summaryLine is validate's last line: `N errors, M warnings`.
var summaryLine = regexp.MustCompile(`^\d+ errors?, \d+ warnings?$`)

// lines returns the validate.Finding lines of a text run, without the summary line.
func (r validateRun) lines() []string {
	var out []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if l != "" && !summaryLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// wantLines checks that every wanted line is printed and nothing else.
func wantLines(t *testing.T, r validateRun, want ...string) {
	t.Helper()
	got := r.lines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("validate printed\n%s\nwant\n%s\n(stderr: %s)", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stderr)
	}
}
