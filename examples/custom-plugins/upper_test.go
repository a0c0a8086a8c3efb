package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	execrunner "github.com/skills-mcp/skills-mcp/runners/exec"
	"github.com/skills-mcp/skills-mcp/runners/runnertest"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// TestUpperRunnerIsBoundedByTheCore: a .upper script without end (a sparse
// file of a tebibyte, which the runner would print for minutes) is stopped
// at its timeout and its output capped by the core's wrapper, around a
// runner with no code for either (issue 27).
func TestUpperRunnerIsBoundedByTheCore(t *testing.T) {
	t.Parallel()
	runnertest.Runaway(t, upperRunner{}, func(t *testing.T, dir string) string {
		f, err := os.Create(filepath.Join(dir, "endless.upper"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(1 << 40); err != nil {
			t.Skipf("no sparse file of 1 TiB here: %v", err)
		}
		return "endless.upper"
	})
}

// TestAwkRunnerIsConfined: the .awk runner starts awk through the core's
// launcher, so awk runs confined as the exec runners' programs do
// (issue 28); runnertest.Confined checks it from the result.
func TestAwkRunnerIsConfined(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/awk"); err != nil {
		t.Skip("awk not installed")
	}
	conf, err := sandbox.NewConfinement(sandbox.ConfineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := conf.Available(); err != nil {
		t.Skipf("confinement unavailable here: %v", err)
	}
	r, err := newAwkRunner(func(command string) (core.Runner, error) {
		return execrunner.New(command, execrunner.WithConfinement(conf))
	})
	if err != nil {
		t.Fatal(err)
	}
	runnertest.Confined(t, r, func(t *testing.T, dir string) string {
		if err := os.WriteFile(filepath.Join(dir, "shout.awk"), []byte("BEGIN { print toupper(\"hello\") }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return "shout.awk"
	})
}
