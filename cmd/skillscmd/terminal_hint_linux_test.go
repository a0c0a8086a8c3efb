package skillscmd

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controller and the terminal side a
// process reads as its stdin. It skips the test where there is none.
func openPTY(t *testing.T) (controller, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestTerminalHint: serve started by a person at a terminal (make run) says
// on stderr that it waits for an MCP client and gives the exact `claude mcp
// add` line, with the absolute paths of this binary and of the skills; with
// stdin a pipe, as a client starts it, it says nothing of the kind (issue 29).
func TestTerminalHint(t *testing.T) {
	t.Parallel()
	_, term := openPTY(t)
	cmd := serverCmd(t)
	cmd.Args = []string{binPath, "serve"}
	cmd.Stdin = term
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	exe, _ := filepath.EvalSymlinks(binPath)
	want := "  claude mcp add skills --env SKILLS_DIR=" + examplesDir(t) + " -- " + exe
	found := make(chan string, 1)
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), "  claude mcp add") {
				break
			}
		}
		found <- seen.String()
	}()
	select {
	case got := <-found:
		if !strings.Contains(got, want+"\n") || !strings.Contains(got, "waiting for an MCP client") {
			t.Errorf("stderr:\n%s\nwant the line\n%s", got, want)
		}
	case <-time.After(60 * time.Second): // far above a start's need
		t.Fatal("no hint within 60 s")
	}

	// a client's pipe: no hint
	piped := serverCmd(t)
	piped.Args = []string{binPath, "serve"}
	piped.Stdin = strings.NewReader("")
	out, err := piped.CombinedOutput()
	if err != nil || strings.Contains(string(out), "claude mcp add") {
		t.Errorf("stdin a pipe: %v, want no hint:\n%s", err, out)
	}
}
