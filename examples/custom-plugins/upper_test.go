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

// TestUpperRunnerIsConfined: the .upper runner starts awk through the core's
// launcher, so awk runs confined as the exec runners' programs do
// (issue 28); runnertest.Confined checks it from the result.
func TestUpperRunnerIsConfined(t *testing.T) {
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
	r, err := newUpperRunner(func(command string) (core.Runner, error) {
		return execrunner.New(command, execrunner.WithConfinement(conf))
	})
	if err != nil {
		t.Fatal(err)
	}
	runnertest.Confined(t, r, func(t *testing.T, dir string) string {
		if err := os.WriteFile(filepath.Join(dir, "shout.upper"), []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return "shout.upper"
	})
}
