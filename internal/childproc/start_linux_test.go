package childproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/skills-mcp/skills-mcp/internal/testproc"
)

// Linux sends a child its parent-death signal when the thread that started
// it ends. A helper started from a goroutine whose thread the runtime then
// ends (a goroutine that exits locked to its thread) must live on: Start
// starts every helper from a thread that lasts as long as the process
// (issue 26, item 8). Setting the signal from the caller's thread would kill
// the helper here.
func TestHelperOutlivesTheThreadThatStartedIt(t *testing.T) {
	t.Parallel()
	type started struct {
		cmd *exec.Cmd
		tid int
		err error
	}
	ch := make(chan started, 1)
	var s started
	for {
		go func() {
			runtime.LockOSThread() // never unlocked: the runtime ends the thread with this goroutine
			if unix.Gettid() == os.Getpid() {
				ch <- started{} // the main thread, which the runtime keeps: once more
				return
			}
			cmd := exec.Command("sleep", "600")
			ch <- started{cmd, unix.Gettid(), Start(cmd, nil)}
		}()
		if s = <-ch; s.cmd != nil {
			break
		}
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	pid := s.cmd.Process.Pid
	t.Cleanup(func() { KillGroup(s.cmd.Process); _ = s.cmd.Wait() })
	task := "/proc/self/task/" + strconv.Itoa(s.tid)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(task); os.IsNotExist(err) {
			break // the thread has ended: a death signal would be sent by now
		}
		if time.Now().After(deadline) {
			t.Fatalf("thread %d still runs", s.tid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !testproc.Alive(pid) || sigkillPending(pid) {
		t.Errorf("the helper was killed when the thread that asked for it ended")
	}
}

// sigkillPending reports whether process pid has a SIGKILL waiting to be
// handled (/proc/PID/status, SigPnd and ShdPnd).
func sigkillPending(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok || (name != "SigPnd" && name != "ShdPnd") {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(value), 16, 64); err == nil && mask&(1<<(unix.SIGKILL-1)) != 0 {
			return true
		}
	}
	return false
}
