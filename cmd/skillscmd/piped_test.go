package skillscmd

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// pipedServer is the built binary with raw pipes: requests are written as
// lines, answers read by id, and the test signals the process itself.
type pipedServer struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan map[string]any
	stderr  *testlog.Buffer
}

func startPiped(t *testing.T, env ...string) *pipedServer {
	t.Helper()
	return startPipedIn(t, "", env...)
}

// startPipedIn is startPiped in the working directory dir ("" for this one's).
func startPipedIn(t *testing.T, dir string, env ...string) *pipedServer {
	t.Helper()
	cmd := serverCmd(t, env...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &pipedServer{cmd: cmd, stdin: stdin, answers: make(chan map[string]any, 64), stderr: &testlog.Buffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	go func() {
		defer close(p.answers)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var msg map[string]any
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg["id"] != nil {
				p.answers <- msg
			}
		}
	}()
	p.send(t, initializeLine)
	p.await(t, 1)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *pipedServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// call sends tools/call name(args) with id.
func (p *pipedServer) call(t *testing.T, id int, name string, args map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	if err != nil {
		t.Fatal(err)
	}
	p.send(t, string(b))
}

// await returns the answer to id (answers to other ids are dropped).
func (p *pipedServer) await(t *testing.T, id int) map[string]any {
	t.Helper()
	timeout := time.After(60 * time.Second) // far above a local call's need
	for {
		select {
		case msg, ok := <-p.answers:
			if !ok {
				t.Fatalf("stdout closed before the answer to %d; stderr:\n%s", id, p.stderr.String())
			}
			if n, _ := msg["id"].(float64); int(n) == id {
				return msg
			}
		case <-timeout:
			t.Fatalf("no answer to %d; stderr:\n%s", id, p.stderr.String())
		}
	}
}

// stop sends SIGTERM and returns the exit code and how long the exit took.
func (p *pipedServer) stop(t *testing.T) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	took := time.Since(start)
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return p.cmd.ProcessState.ExitCode(), took
}
