package skillscmdtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// initializeLine is an initialize request as one stdio frame (id 1).
const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// Protocol runs the suite as subtests of t against the binary bin serving
// skillsDir, which must hold the repository's examples/skills (the suite asks
// for ui/react/auth). extraEnv is added to each server's minimal environment.
func Protocol(t *testing.T, bin, skillsDir string, extraEnv ...string) {
	s := suite{bin: bin, skillsDir: skillsDir, env: extraEnv}
	t.Run("ServesTools", s.servesTools)
	t.Run("MalformedFramesDoNotEndTheSession", s.malformedFrames)
	t.Run("PipedRequestsAreAnsweredBeforeExit", s.pipedRequests)
	t.Run("Shutdown", s.shutdown)
}

type suite struct {
	bin, skillsDir string
	env            []string
}

// command returns the binary on the skills with a minimal environment.
func (s suite) command(t *testing.T) *exec.Cmd {
	cmd := exec.Command(s.bin)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_DIR=" + s.skillsDir,
		"SKILLS_STATE_DIR=" + t.TempDir()}, s.env...)
	return cmd
}

func (s suite) servesTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stderr := &testlog.Buffer{}
	cmd := s.command(t)
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != "skills-mcp" {
		t.Errorf("server name = %q, want skills-mcp", got)
	}
	if cs.InitializeResult().Instructions == "" {
		t.Error("no instructions at initialize")
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, ","), "get_asset,get_skill,list_skills,refresh_skills,report_usage,run_script"; got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "React login authentication"}})
	if err != nil || res.IsError {
		t.Fatalf("get_skill: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"skill_path":"ui/react/auth"`) || !strings.Contains(text, "=== GLOBAL RULES (from _root.md) ===") {
		t.Errorf("get_skill = %s, want ui/react/auth with the global rules", text)
	}
}

// rawServer runs the binary with raw pipes so a test can send arbitrary bytes.
type rawServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr *testlog.Buffer
}

func (s suite) startRaw(t *testing.T) *rawServer {
	t.Helper()
	cmd := s.command(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	return &rawServer{cmd: cmd, stdin: stdin, lines: sc, stderr: stderr}
}

func (r *rawServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next reads one stdout line and checks it is a JSON object.
func (r *rawServer) next(t *testing.T) map[string]any {
	t.Helper()
	if !r.lines.Scan() {
		t.Fatalf("stdout ended: %v\nstderr: %s", r.lines.Err(), r.stderr.String())
	}
	var msg map[string]any
	if err := json.Unmarshal(r.lines.Bytes(), &msg); err != nil {
		t.Fatalf("stdout line is not JSON (stdout must carry only MCP frames): %q", r.lines.Text())
	}
	return msg
}

func (s suite) malformedFrames(t *testing.T) {
	r := s.startRaw(t)
	r.send(t, initializeLine)
	if msg := r.next(t); msg["id"] != float64(1) || msg["result"] == nil {
		t.Fatalf("initialize answer = %v, want a result for id 1", msg)
	}
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	tests := []struct {
		name, line string
		wantCode   float64
		wantID     any
	}{
		{"garbage", "this is not json", -32700, nil},
		{"truncated object", `{"jsonrpc":"2.0","id":7,"method":"tools/list"`, -32700, nil},
		{"valid JSON, not a message", `{"hello":"world","id":9}`, -32600, float64(9)},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.send(t, tt.line)
			msg := r.next(t)
			errObj, _ := msg["error"].(map[string]any)
			if errObj == nil || errObj["code"] != tt.wantCode || msg["id"] != tt.wantID {
				t.Fatalf("got %v, want error %v with id %v", msg, tt.wantCode, tt.wantID)
			}
			r.send(t, `{"jsonrpc":"2.0","id":100,"method":"ping"}`)
			if msg := r.next(t); msg["id"] != float64(100) || msg["error"] != nil {
				t.Fatalf("the next valid request got %v, want a ping answer", msg)
			}
		})
	}
	if !strings.Contains(r.stderr.String(), "rejected an inbound frame") {
		t.Errorf("no warning on stderr: %s", r.stderr.String())
	}
}

// pipedRequests: a client that writes its requests and closes stdin at once
// (a script, a pipeline) still gets every answer.
func (s suite) pipedRequests(t *testing.T) {
	cmd := s.command(t)
	cmd.Stdin = strings.NewReader(initializeLine + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"jwt middleware"}}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("exit: %v", err)
	}
	var ids []float64
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var msg struct {
			ID float64 `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		ids = append(ids, msg.ID)
	}
	slices.Sort(ids) // answers may come in any order: requests run concurrently
	if fmt.Sprint(ids) != "[1 2 3]" {
		t.Errorf("answered ids %v, want 1, 2 and 3\n%s", ids, out)
	}
}

func (s suite) shutdown(t *testing.T) {
	tests := []struct {
		name string
		stop func(r *rawServer) error
	}{
		{"stdin closed", func(r *rawServer) error { return r.stdin.Close() }},
		{"SIGTERM", func(r *rawServer) error { return r.cmd.Process.Signal(syscall.SIGTERM) }},
		{"SIGINT", func(r *rawServer) error { return r.cmd.Process.Signal(os.Interrupt) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.startRaw(t)
			r.send(t, initializeLine)
			r.next(t)
			if err := tt.stop(r); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- r.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit: %v, want status 0\nstderr: %s", err, r.stderr.String())
				}
			case <-time.After(20 * time.Second): // a safety net, not a speed assertion
				t.Fatal("server did not exit")
			}
		})
	}
}
