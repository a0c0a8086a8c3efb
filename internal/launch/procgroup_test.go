//go:build unix

package launch_test

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// startGroup starts a shell that forks a background sleep and waits; it
// returns the command and the background child's pid.
func startGroup(t *testing.T) (*exec.Cmd, int) {
	t.Helper()
	testenv.RequireTool(t, "sh")
	testenv.RequireTool(t, "sleep")
	cmd := exec.Command("sh", "-c", "sleep 300 & echo $!; wait")
	launch.StartInGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting sh: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the child's pid: %v", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("child pid %q: %v", line, err)
	}
	return cmd, child
}

func TestGroupSignals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		signal   func(*exec.Cmd) error
		wantExit int
	}{
		{"TerminateGroup sends SIGTERM", func(c *exec.Cmd) error { return launch.TerminateGroup(c.Process) }, 128 + 15},
		{"KillGroup sends SIGKILL", func(c *exec.Cmd) error {
			killed, err := launch.KillGroup(c.Process)
			if err == nil && !killed {
				t.Errorf("KillGroup on a live group reported nothing killed")
			}
			return err
		}, 128 + 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, child := startGroup(t)
			if pgid, err := syscall.Getpgid(child); err != nil || pgid != cmd.Process.Pid {
				t.Fatalf("child %d is in group %d (%v), want the leader's %d", child, pgid, err, cmd.Process.Pid)
			}
			if !launch.GroupAlive(cmd.Process.Pid) {
				t.Fatalf("GroupAlive = false for a running group, want true")
			}

			if err := tc.signal(cmd); err != nil {
				t.Fatalf("signalling the group: %v", err)
			}
			_ = cmd.Wait()

			if got := launch.ExitCode(cmd.ProcessState); got != tc.wantExit {
				t.Errorf("ExitCode = %d, want %d", got, tc.wantExit)
			}
			if !eventually(func() bool { return !launch.GroupAlive(cmd.Process.Pid) }) {
				t.Errorf("group %d still alive after the signal, want every member gone", cmd.Process.Pid)
			}
			// Zombies not yet reaped by init still take the signal, so only the error is checked.
			if _, err := launch.KillGroup(cmd.Process); err != nil {
				t.Errorf("KillGroup on a dead group: %v, want no error", err)
			}
		})
	}
}

func TestKillGroupAfterTheLeaderExited(t *testing.T) {
	testenv.RequireTool(t, "sh")
	testenv.RequireTool(t, "sleep")
	cmd := exec.Command("sh", "-c", "sleep 300 >/dev/null 2>&1 & exit 0")
	launch.StartInGroup(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatalf("running sh: %v", err)
	}
	pgid := cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	if !launch.GroupAlive(pgid) {
		t.Fatalf("GroupAlive = false while the background sleep runs, want true")
	}

	killed, err := launch.KillGroup(cmd.Process)

	if err != nil || !killed {
		t.Fatalf("KillGroup = %v, %v; want true, nil", killed, err)
	}
	if !eventually(func() bool { return !launch.GroupAlive(pgid) }) {
		t.Errorf("group %d still alive after KillGroup", pgid)
	}
}

func TestKillGroupOfAFinishedProcess(t *testing.T) {
	testenv.RequireTool(t, "sh")
	cmd := exec.Command("sh", "-c", "exit 0")
	launch.StartInGroup(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatalf("running sh: %v", err)
	}

	killed, err := launch.KillGroup(cmd.Process)

	if err != nil || killed {
		t.Errorf("KillGroup of a finished group = %v, %v; want false, nil", killed, err)
	}
	if err := launch.TerminateGroup(cmd.Process); err != nil {
		t.Errorf("TerminateGroup of a finished group: %v, want no error", err)
	}
}

func TestExitCode(t *testing.T) {
	testenv.RequireTool(t, "sh")
	for _, tc := range []struct {
		name, script string
		want         int
	}{
		{"success", "exit 0", 0},
		{"failure", "exit 7", 7},
		{"highest code", "exit 255", 255},
		{"killed by SIGUSR1", "kill -USR1 $$", 128 + 10},
		{"killed by SIGKILL", "kill -KILL $$", 128 + 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tc.script)
			_ = cmd.Run()
			if cmd.ProcessState == nil {
				t.Fatal("sh did not run")
			}
			if got := launch.ExitCode(cmd.ProcessState); got != tc.want {
				t.Errorf("ExitCode = %d, want %d", got, tc.want)
			}
		})
	}
	if got := launch.ExitCode(nil); got != -1 {
		t.Errorf("ExitCode(nil) = %d, want -1", got)
	}
}

func TestGroupAliveOfNoGroup(t *testing.T) {
	for _, pid := range []int{0, -1} {
		if launch.GroupAlive(pid) {
			t.Errorf("GroupAlive(%d) = true, want false", pid)
		}
	}
}

// eventually polls cond for a bounded time: a killed process takes a moment
// to be torn down. The bound is a safety net, not a speed check.
func eventually(cond func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}
