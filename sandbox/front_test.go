package sandbox_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// What a custom runner gets from the public front: the environment a script
// may see and nothing of the server's.
func TestMinimalEnvKeepsTheServersVariablesOut(t *testing.T) {
	t.Setenv("SKILLS_HTTP_TOKEN", "secret-token")
	dir := t.TempDir()
	env, err := sandbox.MinimalEnv(dir, map[string]string{"title": "x y", "dry-run": "1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{sandbox.SkillDirEnv + "=" + dir, sandbox.ArgEnvPrefix + "TITLE=x y", sandbox.ArgEnvPrefix + "DRY_RUN=1"} {
		if !slices.Contains(env, want) {
			t.Errorf("env %v lacks %q", env, want)
		}
	}
	if strings.Contains(strings.Join(env, "\n"), "secret-token") {
		t.Errorf("the server's SKILLS_HTTP_TOKEN reached the script's environment: %v", env)
	}
	if _, err := sandbox.MinimalEnv(dir, map[string]string{"bad name": "x"}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Errorf("argument name with a space: %v, want core.ErrInvalidArgument", err)
	}
}

// A process group started through the front is signalled whole: the
// script's own child too.
func TestProcessGroupIsSignalledWhole(t *testing.T) {
	t.Parallel()
	sh := testenv.RequireTool(t, "sh")
	testenv.RequireTool(t, "sleep")
	cmd := exec.Command(sh, "-c", "sleep 30 & sleep 30")
	sandbox.StartInGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := sandbox.TerminateGroup(cmd.Process); err != nil {
		t.Fatalf("TerminateGroup: %v", err)
	}
	_ = cmd.Wait()
	// The background sleep got SIGTERM with the shell; once it is reaped the
	// group is empty and KillGroup finds nobody (a group that is gone is not
	// an error).
	deadline := time.Now().Add(30 * time.Second)
	for {
		left, err := sandbox.KillGroup(cmd.Process)
		if err != nil {
			t.Fatalf("KillGroup: %v", err)
		}
		if !left {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the script's child still runs 30 s after its group was terminated")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NewConfinement refuses what the operator got wrong, naming it; a valid
// confinement answers whether this machine can confine scripts.
func TestNewConfinementChecksTheOperatorsOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts sandbox.ConfineOptions
		want string
	}{
		{"relative read root", sandbox.ConfineOptions{ReadRoots: []string{"lib"}}, "lib"},
		{"the root as read root", sandbox.ConfineOptions{ReadRoots: []string{"/"}}, "/"},
		{"negative memory", sandbox.ConfineOptions{MemoryMB: -1}, "-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := sandbox.NewConfinement(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewConfinement(%+v) = %v, want an error naming %q", tc.opts, err, tc.want)
			}
		})
	}
	c, err := sandbox.NewConfinement(sandbox.ConfineOptions{ReadRoots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Available(); err != nil && !errors.Is(err, sandbox.ErrUnconfinable) {
		t.Errorf("Available = %v, want nil or an error wrapping ErrUnconfinable", err)
	}
}
