package skillscmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// binPath is the skills-mcp binary built once for the subprocess tests.
var binPath string

// examplesCopy is a copy of examples/skills with its WASM script built (the
// .wasm is a build product, absent from a fresh clone).
var examplesCopy string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "skills-mcp-bin-")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "skills-mcp")
	if out, err := exec.Command("go", "build", "-o", binPath, "./skills-mcp").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building skills-mcp: " + err.Error() + "\n" + string(out))
	}
	examplesCopy = filepath.Join(dir, "examples", "skills")
	if err := os.CopyFS(examplesCopy, os.DirFS("../examples/skills")); err != nil {
		panic("copying examples: " + err.Error())
	}
	wasmOut := filepath.Join(examplesCopy, "api", "rest", "scripts", "slugify.wasm")
	build := exec.Command("go", "build", "-o", wasmOut, "../examples/wasm/slugify")
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building the example wasm: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// examplesDir is the example skills, with the WASM script built.
func examplesDir(t *testing.T) string {
	t.Helper()
	return examplesCopy
}

// serverCmd starts the binary on the example skills with a minimal environment.
func serverCmd(t *testing.T, extraEnv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binPath)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_DIR=" + examplesDir(t)}, extraEnv...)
	return cmd
}

func TestStdioSubprocessServesTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stderr := &testlog.Buffer{}
	cmd := serverCmd(t)
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != "skills-mcp" {
		t.Errorf("server name = %q", got)
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
	if got := strings.Join(names, ","); got != "get_asset,get_skill,list_skills,refresh_skills,report_usage,run_script" {
		t.Errorf("tools = %s", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "React login authentication"}})
	if err != nil || res.IsError {
		t.Fatalf("get_skill: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"skill_path":"ui/react/auth"`) || !strings.Contains(text, "=== GLOBAL RULES (from _root.md) ===") {
		t.Errorf("get_skill = %s", text)
	}
}

// rawServer runs the binary with raw pipes so a test can send arbitrary bytes.
type rawServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr *testlog.Buffer
}

func startRaw(t *testing.T) *rawServer {
	t.Helper()
	cmd := serverCmd(t)
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

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestMalformedFramesDoNotEndTheSession(t *testing.T) {
	s := startRaw(t)
	s.send(t, initializeLine)
	if msg := s.next(t); msg["id"] != float64(1) || msg["result"] == nil {
		t.Fatalf("initialize answer = %v", msg)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
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
			s.send(t, tt.line)
			msg := s.next(t)
			errObj, _ := msg["error"].(map[string]any)
			if errObj == nil || errObj["code"] != tt.wantCode || msg["id"] != tt.wantID {
				t.Fatalf("got %v, want error %v with id %v", msg, tt.wantCode, tt.wantID)
			}
			s.send(t, `{"jsonrpc":"2.0","id":100,"method":"ping"}`)
			if msg := s.next(t); msg["id"] != float64(100) || msg["error"] != nil {
				t.Fatalf("the next valid request got %v, want a ping answer", msg)
			}
		})
	}
	if !strings.Contains(s.stderr.String(), "rejected an inbound frame") {
		t.Errorf("no warning on stderr: %s", s.stderr.String())
	}
}

func TestShutdown(t *testing.T) {
	tests := []struct {
		name string
		stop func(s *rawServer) error
	}{
		{"stdin closed", func(s *rawServer) error { return s.stdin.Close() }},
		{"SIGTERM", func(s *rawServer) error { return s.cmd.Process.Signal(syscall.SIGTERM) }},
		{"SIGINT", func(s *rawServer) error { return s.cmd.Process.Signal(os.Interrupt) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startRaw(t)
			s.send(t, initializeLine)
			s.next(t)
			if err := tt.stop(s); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- s.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit: %v, want status 0\nstderr: %s", err, s.stderr.String())
				}
			case <-time.After(20 * time.Second): // a safety net, not a speed assertion
				t.Fatal("server did not exit")
			}
		})
	}
}

func TestStartupErrors(t *testing.T) {
	badConfig := t.TempDir()
	if err := os.WriteFile(filepath.Join(badConfig, "config.yaml"), []byte("scripts:\n  timeout_seconds: -3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		code  int
		wants []string
	}{
		{"no source", nil, nil, exitUsage, []string{"SKILLS_DIR", "SKILLS_REPO"}},
		{"missing dir", []string{"--skills-dir", "/nonexistent/skills"}, nil, exitUsage, []string{"/nonexistent/skills"}},
		{"invalid config", nil, map[string]string{"SKILLS_DIR": badConfig}, exitUsage, []string{"config.yaml", "scripts.timeout_seconds"}},
		{"bad env", nil, map[string]string{"SKILLS_DIR": badConfig, "REFRESH_INTERVAL_MINUTES": "often"}, exitUsage, []string{"REFRESH_INTERVAL_MINUTES"}},
		{"unknown command", []string{"frobnicate"}, nil, exitUsage, []string{"unknown command"}},
		{"unknown flag", []string{"serve", "--nope"}, nil, exitUsage, []string{"nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), tt.args, io.NopCloser(strings.NewReader("")), &stdout, &stderr, func(k string) string { return tt.env[k] })
			if code != tt.code {
				t.Errorf("exit code = %d, want %d (stderr %s)", code, tt.code, stderr.String())
			}
			for _, w := range tt.wants {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not mention %q", stderr.String(), w)
				}
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}

// TestPipedRequestsAreAnsweredBeforeExit: a client that writes its requests
// and closes stdin at once (a script, a pipeline) still gets every answer.
func TestPipedRequestsAreAnsweredBeforeExit(t *testing.T) {
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir())
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
