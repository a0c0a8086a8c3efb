// Package testenv holds what tests ask of the machine they run on: the
// external programs they start, and whether they are long. On a developer's
// machine a test missing a program is skipped with a message naming it; in CI
// (CI=true) it fails instead, so a missing tool is never a silent pass. Only
// tests import it.
package testenv

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// InCI reports whether the tests run in CI: the CI environment variable is
// set to a true value ("true", "1", as CI services set it).
func InCI() bool {
	ci, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && ci
}

// RequireTool returns the path of the program name found in PATH. When it is
// missing, the test is skipped with a message naming it, or fails in CI,
// where .ci/run installs every program the tests need.
func RequireTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if InCI() {
		t.Fatalf("the test needs %s, which is not in PATH (CI=true: .ci/run installs it): %v", name, err)
	}
	t.Skipf("the test needs %s, which is not in PATH: %v", name, err)
	return ""
}

// Long skips a long test under -short, naming why it is long: `make test`
// runs with -short, `make test-long` runs the long tests alone (it finds
// them by their call to Long, so call it in the test function itself).
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long test (%s): runs in make test-long", why)
	}
}
