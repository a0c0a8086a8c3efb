package skillscmd

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/cmd/skillscmdtest"
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
	if out, err := exec.Command("go", "build", "-o", binPath, "../skills-mcp").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building skills-mcp: " + err.Error() + "\n" + string(out))
	}
	// The .wasm runner and git mode's syncs are helper executables found
	// next to skills-mcp, else on PATH (internal/childproc): next to binPath
	// for the subprocess tests, on PATH for the tests that run the command in
	// this process.
	for _, helper := range []string{"skills-mcp-wasm", "skills-mcp-git"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, helper), "../"+helper).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			panic("building " + helper + ": " + err.Error() + "\n" + string(out))
		}
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	examplesCopy = filepath.Join(dir, "examples", "skills")
	if err := os.CopyFS(examplesCopy, os.DirFS("../../examples/skills")); err != nil {
		panic("copying examples: " + err.Error())
	}
	wasmOut := filepath.Join(examplesCopy, "api", "rest", "scripts", "slugify.wasm")
	build := exec.Command("go", "build", "-o", wasmOut, "../../examples/wasm/slugify")
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

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestStartupErrors(t *testing.T) {
	t.Parallel()
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
			code := New(nil).Run(context.Background(), tt.args, io.NopCloser(strings.NewReader("")), &stdout, &stderr, func(k string) string { return tt.env[k] })
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

// TestProtocol runs the protocol suite every skills-mcp build passes
// (examples/custom-plugins runs it against its own binary).
func TestProtocol(t *testing.T) {
	t.Parallel()
	skillscmdtest.Protocol(t, binPath, examplesDir(t))
}
