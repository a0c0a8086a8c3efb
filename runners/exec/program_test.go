package exec_test

import (
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// fakeInterpreter writes an executable shell script named name into dir that
// prints says and touches dir/ran-<says>, and returns that marker's path.
func fakeInterpreter(t *testing.T, dir, name, says string) string {
	t.Helper()
	requireProgram(t, "sh")
	marker := filepath.Join(dir, "ran-"+says)
	body := "#!/bin/sh\ntouch '" + marker + "'\necho " + says + "\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return marker
}

// TestProgramIsResolvedAtNew: the program is found once, when the runner is
// made (at server start), so a PATH changed later, or a program of that name
// that appears elsewhere since, is not what runs (issue 26, item 1).
func TestProgramIsResolvedAtNew(t *testing.T) {
	first, later := t.TempDir(), t.TempDir()
	fakeInterpreter(t, first, "interp-26", "first")
	fakeInterpreter(t, later, "interp-26", "later")
	t.Setenv("PATH", first)
	r := newRunner(t, "interp-26")
	t.Setenv("PATH", later+string(os.PathListSeparator)+first)

	res := runOK(t, r, request(t, "s.sh", "", nil))

	if res.Stdout != "first\n" {
		t.Errorf("stdout = %q, want the program found at New (%q)", res.Stdout, "first\n")
	}
}

// TestProgramIsNeverFoundInTheWorkingDirectory: relative entries of PATH
// ("", ".", "bin") would find the program in the run's working directory,
// where the caller may have planted one; they are skipped, and a program
// given as a relative path is refused at New.
func TestProgramIsNeverFoundInTheWorkingDirectory(t *testing.T) {
	work := t.TempDir()
	planted := []string{
		fakeInterpreter(t, work, "interp-26", "dot"),
		fakeInterpreter(t, filepath.Join(work, "bin"), "interp-26", "bin"),
	}
	t.Chdir(work) // New resolves relative entries against the server's own directory
	real := t.TempDir()
	fakeInterpreter(t, real, "interp-26", "real")
	for _, tc := range []struct {
		name, path, want string // want: "" for not found
	}{
		{"dot only", ".", ""},
		{"empty entry", string(os.PathListSeparator), ""},
		{"relative directory", "bin", ""},
		{"relative entries before an absolute one", "." + string(os.PathListSeparator) + "bin" + string(os.PathListSeparator) + real, "real\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			r := newRunner(t, "interp-26")
			req := request(t, "s.sh", "", nil)
			req.Dir = work

			res, err := r.Run(t.Context(), req)

			switch {
			case tc.want == "" && (err == nil || !errors.Is(err, osexec.ErrNotFound) || !strings.Contains(err.Error(), `"interp-26" not found in PATH`)):
				t.Errorf("Run = %+v, %v; want an error wrapping exec.ErrNotFound naming the program", res, err)
			case tc.want != "" && (err != nil || res.Stdout != tc.want):
				t.Errorf("Run = %+v, %v; want stdout %q", res, err, tc.want)
			}
			for _, m := range planted {
				if _, err := os.Stat(m); err == nil {
					t.Fatalf("the program planted in the working directory ran (%s exists)", m)
				}
			}
		})
	}
	for _, command := range []string{"./interp-26", "bin/interp-26 --flag"} {
		if r, err := exec.New(command); !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), "relative path") {
			t.Errorf("New(%q) = %v, %v; want an error wrapping %v saying it is a relative path", command, r, err, core.ErrInvalidArgument)
		}
	}
}
