//go:build unix

package exec_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// TestNoProcessOfTheGroupSurvives runs scripts that leave a background child
// behind, some ignoring SIGTERM, and checks that the whole process group is gone
// once Run returns.
func TestNoProcessOfTheGroupSurvives(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	requireProgram(t, "sleep")
	for _, tc := range []struct {
		name        string
		body        string
		timeout     time.Duration
		wantTimeout bool
		wantStdout  string
	}{
		{
			name: "timeout: the script dies on SIGTERM, its child ignores it",
			body: `( trap '' TERM; exec sleep 300 ) &
echo "$$ $!" > "$SKILL_ARG_PIDS"
echo started
sleep 300
`,
			timeout: time.Second, wantTimeout: true, wantStdout: "started\n",
		},
		{
			name: "timeout: everything ignores SIGTERM, SIGKILL after the grace period",
			body: `trap '' TERM
sleep 300 &
echo "$$ $!" > "$SKILL_ARG_PIDS"
echo started
sleep 300
`,
			timeout: time.Second, wantTimeout: true, wantStdout: "started\n",
		},
		{
			name: "normal exit leaves a child that holds stdout and ignores SIGTERM",
			body: `( trap '' TERM; exec sleep 300 ) &
echo "$$ $!" > "$SKILL_ARG_PIDS"
echo done
`,
			wantStdout: "done\n",
		},
		{
			name: "double fork into a new session outlives the timeout (issue 16, item 9)",
			body: `( P=$$ setsid sh -c 'echo "$P $$" > "$SKILL_ARG_PIDS.tmp"; mv "$SKILL_ARG_PIDS.tmp" "$SKILL_ARG_PIDS"; exec sleep 300' & )
while [ ! -s "$SKILL_ARG_PIDS" ]; do sleep 0.05; done
echo started
sleep 300
`,
			timeout: time.Second, wantTimeout: true, wantStdout: "started\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pids")
			req := request(t, "s.sh", tc.body, map[string]string{"pids": pidFile})
			req.Timeout = tc.timeout

			res := runOK(t, newRunner(t, "bash", exec.WithGrace(200*time.Millisecond)), req)

			if res.TimedOut != tc.wantTimeout || res.Stdout != tc.wantStdout {
				t.Errorf("got TimedOut %v stdout %q, want TimedOut %v stdout %q (stderr %q)",
					res.TimedOut, res.Stdout, tc.wantTimeout, tc.wantStdout, res.Stderr)
			}
			if tc.wantTimeout && res.ExitCode != core.TimeoutExitCode {
				t.Errorf("exit code = %d, want %d", res.ExitCode, core.TimeoutExitCode)
			}
			// The script leads its group, so its pid is the group id.
			pgid, child := readPIDs(t, pidFile)
			t.Cleanup(func() {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				_ = syscall.Kill(child, syscall.SIGKILL)
			})
			if !eventually(func() bool { return !processAlive(child) }) {
				t.Errorf("background child %d still alive after Run returned", child)
			}
			if !eventually(func() bool { return !launch.GroupAlive(pgid) }) {
				t.Errorf("process group %d still has live members after Run returned", pgid)
			}
		})
	}
}

func readPIDs(t *testing.T, file string) (script, child int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading pid file: %v", err)
	}
	fields := strings.Fields(string(data))
	if len(fields) != 2 {
		t.Fatalf("pid file holds %q, want two pids", data)
	}
	pids := make([]int, 2)
	for i, f := range fields {
		if pids[i], err = strconv.Atoi(f); err != nil || pids[i] <= 0 {
			t.Fatalf("pid file holds %q: %v", data, err)
		}
	}
	return pids[0], pids[1]
}

// processAlive reports whether pid runs and is not a zombie: /proc tells
// zombies apart where it exists, signal 0 answers elsewhere.
func processAlive(pid int) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	end := strings.LastIndexByte(string(data), ')')
	fields := strings.Fields(string(data[end+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// eventually polls cond for a bounded time: a killed process takes a moment
// to be torn down by the kernel. The bound is a safety net, not a speed check.
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
