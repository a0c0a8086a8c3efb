package childproc

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// A helper leads a process group of its own, so the server's reaping of
// what scripts leave behind (KillOrphans at the end of every exec run,
// ReapZombies on every SIGCHLD) no longer spares it for being in the
// server's group: Start registers it. Unregistered, KillOrphans killed a
// warm .wasm helper whenever a script ended, and ReapZombies could reap an
// exited git helper first, so that its Wait failed with "waitid: no child
// processes". The table is the test's own, as the command's is the
// server's. Not parallel: KillOrphans looks at every child of the test
// process.
func TestReapingSparesHelpers(t *testing.T) {
	procs := launch.NewProcesses()
	t.Run("KillOrphans", func(t *testing.T) {
		cmd := exec.Command("sleep", "60")
		if err := Start(cmd, procs); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { KillGroup(cmd.Process); _ = cmd.Wait() })
		if n, err := procs.KillOrphans(); err != nil || n != 0 {
			t.Fatalf("KillOrphans() = %d, %v; want 0 killed: the helper is not an orphan", n, err)
		}
		if state := procState(cmd.Process.Pid); state == "" || state == "Z" {
			t.Fatalf("the helper's state is %q, want it running", state)
		}
	})
	t.Run("ReapZombies", func(t *testing.T) {
		cmd := exec.Command("true")
		if err := Start(cmd, procs); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second) // far above the exit of `true`
		for procState(cmd.Process.Pid) != "Z" {
			if time.Now().After(deadline) {
				t.Fatal("the helper did not exit")
			}
			time.Sleep(5 * time.Millisecond)
		}
		if n := procs.ReapZombies(); n != 0 {
			t.Errorf("ReapZombies() = %d, want 0: the helper is waited for by its own Wait", n)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("Wait() = %v, want nil", err)
		}
	})
}

// procState is the state letter of /proc/PID/stat, "" when it is gone.
func procState(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	end := strings.LastIndexByte(string(stat), ')')
	if end < 0 || len(stat) < end+3 {
		return ""
	}
	return string(stat[end+2])
}
