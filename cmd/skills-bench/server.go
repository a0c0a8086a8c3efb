package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// serverProc is one running skills-mcp process and the client talking to it.
type serverProc struct {
	cmd      *exec.Cmd
	client   *client
	stateDir string
	stderr   *tailBuffer
	// spawn is the time from starting the process to the initialize result.
	spawn time.Duration
	// started is when the process was started.
	started time.Time
}

// startServer spawns bin as a stdio MCP server on skillsDir with a fresh state
// directory, sends initialize at once and waits for its result: the time
// measured is what an MCP client waits for between spawning the server and
// being able to list its tools. extraArgs follow `serve`; extraEnv (KEY=VALUE)
// is added to the minimal environment.
func startServer(bin, skillsDir string, extraArgs, extraEnv []string) (*serverProc, error) {
	return startProc(bin, append([]string{"serve"}, extraArgs...), skillsDir, extraEnv)
}

// startProc is startServer for any stdio MCP server: bin is run with args
// (the floor server takes no `serve`).
func startProc(bin string, args []string, skillsDir string, extraEnv []string) (*serverProc, error) {
	stateDir, err := os.MkdirTemp("", "skills-bench-state-")
	if err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + stateDir,
		"SKILLS_DIR=" + skillsDir,
		"SKILLS_STATE_DIR=" + stateDir,
		"SKILLS_LOG_LEVEL=error",
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	stderr := &tailBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		os.RemoveAll(stateDir)
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(stateDir)
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	p := &serverProc{cmd: cmd, stateDir: stateDir, stderr: stderr}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		os.RemoveAll(stateDir)
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	p.client = newClient(stdout, stdin)
	p.started = start
	if _, err := p.client.call("initialize", initializeParams); err != nil {
		p.stop()
		return nil, fmt.Errorf("initializing %s: %w (stderr: %s)", bin, err, stderr.String())
	}
	p.spawn = time.Since(start)
	if err := p.client.notify("notifications/initialized"); err != nil {
		p.stop()
		return nil, fmt.Errorf("initializing %s: %w", bin, err)
	}
	return p, nil
}

// pid is the server's process id.
func (p *serverProc) pid() int { return p.cmd.Process.Pid }

// stop closes the server's stdin (the MCP way to end a stdio session) and
// waits for it to exit, killing it after 10 s; it removes the state directory.
func (p *serverProc) stop() {
	_ = p.client.w.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
	os.RemoveAll(p.stateDir)
}

// tailBuffer keeps the last max bytes written to it (the server's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
