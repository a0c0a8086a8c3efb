package skillscmd

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestBadConfinementSettingsStopTheStart: every operator setting of issue
// 28 with a wrong value stops `run` (and serve, which reads them the same
// way) before anything runs, exit 2, with a message naming the variable.
func TestBadConfinementSettingsStopTheStart(t *testing.T) {
	t.Parallel()
	skills := confineSkills(t)
	state := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, variable, value string
		want                  string
	}{
		{"unknown sandbox", "SKILLS_SCRIPTS_SANDBOX", "strict", "want confined or none"},
		{"unknown network", "SKILLS_SCRIPTS_NETWORK", "some", "want deny or allow"},
		{"memory not a number", "SKILLS_SCRIPTS_MEMORY_MB", "1G", "whole number of MiB"},
		{"memory too small", "SKILLS_SCRIPTS_MEMORY_MB", "4", "at least 16"},
		{"relative read root", "SKILLS_SCRIPTS_READ_ROOTS", "lib/python", "relative path"},
		{"missing read root", "SKILLS_SCRIPTS_READ_ROOTS", "/nonexistent/read-root", "does not exist"},
		{"read root is /", "SKILLS_SCRIPTS_READ_ROOTS", "/", "root of the file system"},
		{"read root is a file", "SKILLS_SCRIPTS_READ_ROOTS", file, "not a directory"},
		{"read root holds the state", "SKILLS_SCRIPTS_READ_ROOTS", filepath.Dir(state), "state directory"},
		{"passed variable set by the run", "SKILLS_SCRIPTS_ENV", "PYTHONPATH,HOME", "set by the run itself"},
		{"passed variable not a name", "SKILLS_SCRIPTS_ENV", "A=B", "not a variable name"},
		{"write root holds the skills", "SKILLS_SCRIPTS_WRITE_ROOTS", skills, "holds a skills directory"},
		{"write root holds the state", "SKILLS_SCRIPTS_WRITE_ROOTS", state, "state directory"},
		{"write root is /", "SKILLS_SCRIPTS_WRITE_ROOTS", "/", "root of the file system"},
		{"remote runs unknown", "SKILLS_SCRIPTS_ALLOW_REMOTE", "yes", "want true or false"},
		{"wasm mount relative", "SKILLS_WASM_MOUNTS", "data=srv/data", "want GUEST=HOST"},
		{"runner without extension", "SKILLS_SCRIPTS_RUNNERS", "rb=ruby", "want .EXT=COMMAND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SKILLS_DIR": skills, "SKILLS_STATE_DIR": state, "HOME": t.TempDir(), tc.variable: tc.value}
			var stdout, stderr bytes.Buffer
			code := New(nil).Run(context.Background(), []string{"run", "box", "scripts/peek.sh", "--arg", "target=/etc/hostname"},
				nil, &stdout, &stderr, func(k string) string { return env[k] })
			if code != exitUsage || !strings.Contains(stderr.String(), tc.variable) || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("%s=%q: exit %d, stderr %q; want exit %d naming %s and saying %q",
					tc.variable, tc.value, code, stderr.String(), exitUsage, tc.variable, tc.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("the script ran: stdout %q", stdout.String())
			}
		})
	}
}

// confineSkills is a skills directory whose skill "box" declares
// scripts/peek.sh, which reads SKILL_ARG_TARGET, says where HOME is and
// tries SKILL_ARG_PORT on the loopback when given.
func confineSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"box/SKILL.md": "---\nname: box\ndescription: Tries to get out of its box, to test confinement.\nscripts:\n" +
			"  - file: scripts/peek.sh\n    description: Reads a file\n    execution: server\n    args:\n" +
			"      - name: target\n        description: what to read\n        required: true\n" +
			"      - name: port\n        description: a local port to try\n---\n# Box\n",
		"box/scripts/peek.sh": `echo "home=$HOME"
if out=$(cat "$SKILL_ARG_TARGET" 2>&1); then echo "read: $out"; else echo "refused: $out"; fi
if [ -n "$SKILL_ARG_PORT" ]; then
  if out=$( (exec 3<>"/dev/tcp/127.0.0.1/$SKILL_ARG_PORT") 2>&1); then echo "connected"; else echo "no connection: $out"; fi
fi
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunScriptIsConfinedByDefault runs a script through the server binary
// over MCP, as an agent would, with the server's HOME holding an SSH key and
// a listener on the loopback: confined (the default), the script reads
// neither the key nor reaches the port, and its HOME is not the server's;
// with SKILLS_SCRIPTS_SANDBOX=none (and the network allowed) it does both,
// as before issue 28.
func TestRunScriptIsConfinedByDefault(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("confinement is Linux's")
	}
	t.Parallel()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	skills := confineSkills(t)
	for _, tc := range []struct {
		name  string
		env   []string
		wants []string
	}{
		{"confined", nil, []string{"refused: cat: ", "Permission denied", "no connection: "}},
		{"none", []string{"SKILLS_SCRIPTS_SANDBOX=none"}, []string{"read: fake-key", "connected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			key := filepath.Join(home, ".ssh", "id_ed25519")
			if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(key, []byte("fake-key"), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := serverCmd(t, append([]string{"HOME=" + home, "SKILLS_DIR=" + skills}, tc.env...)...)
			stderr := &testlog.Buffer{}
			cmd.Stderr = stderr
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "confine-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, stderr)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
				"skill_path": "box", "file": "scripts/peek.sh", "args": map[string]any{"target": key, "port": port},
			}})
			if err != nil || res.IsError {
				t.Fatalf("run_script: %v %+v\n%s", err, res, stderr)
			}
			var out struct{ Stdout, Stderr string }
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.wants {
				if !strings.Contains(out.Stdout, want) {
					t.Errorf("stdout %q, want it to hold %q (stderr %q)", out.Stdout, want, out.Stderr)
				}
			}
			if tc.name == "confined" && strings.Contains(out.Stdout, "home="+home+"\n") {
				t.Errorf("the confined script's HOME is the server's: %q", out.Stdout)
			}
		})
	}
}

// TestVersionSaysHowScriptsRun: `skills-mcp version` states which
// confinement mechanisms are active (Landlock's ABI, the namespaces), or
// that scripts run unconfined.
func TestVersionSaysHowScriptsRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  []string
		want []string
	}{
		{"default", nil, []string{"native scripts: confined: Landlock ABI ", "user and network namespaces"}},
		{"network allowed", []string{"SKILLS_SCRIPTS_NETWORK=allow"}, []string{"network allowed by SKILLS_SCRIPTS_NETWORK"}},
		{"none", []string{"SKILLS_SCRIPTS_SANDBOX=none"}, []string{"native scripts: unconfined (SKILLS_SCRIPTS_SANDBOX=none)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := serverCmd(t, tc.env...)
			cmd.Args = append(cmd.Args, "version")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("version: %v", err)
			}
			for _, want := range tc.want {
				if runtime.GOOS != "linux" && tc.name != "none" {
					want = "native scripts: refused"
				}
				if !strings.Contains(string(out), want) {
					t.Errorf("version says %q, want %q", out, want)
				}
			}
		})
	}
}

// TestContentRunnersPickAmongTheOperatorsPrograms: scripts.runners in the
// content's config.yaml may only choose among the operator's programs (the
// standard four, and those SKILLS_SCRIPTS_RUNNERS adds); any other command
// is ignored with a warning naming the variable, the extension keeping its
// default program.
func TestContentRunnersPickAmongTheOperatorsPrograms(t *testing.T) {
	t.Parallel()
	const yaml = "scripts:\n  runners:\n    \".sh\": \"/tmp/evil\"\n    \".py\": \"bash\"\n    \".rb\": \"ruby\"\n    \".ts\": \"npx   tsx\"\n"
	for _, tc := range []struct {
		name, operator string
		want           map[string]string
		warns          []string
	}{
		{"standard programs only", "",
			map[string]string{".sh": "bash", ".py": "bash", ".ts": "npx   tsx", ".js": "node"}, []string{"extension=.sh", "extension=.rb"}},
		{"the operator adds ruby", ".rb=ruby",
			map[string]string{".sh": "bash", ".py": "bash", ".rb": "ruby", ".ts": "npx   tsx", ".js": "node"}, []string{"extension=.sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			loaded, err := config.Load(dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			cfg := loaded.Config
			logs := &testlog.Buffer{}
			env := map[string]string{"SKILLS_SCRIPTS_RUNNERS": tc.operator}
			if err := applyOperatorRunners(func(k string) string { return env[k] }, loaded, &cfg, hclog.New(&hclog.LoggerOptions{Output: logs})); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(cfg.Scripts.Runners, tc.want) {
				t.Errorf("runners %v, want %v", cfg.Scripts.Runners, tc.want)
			}
			if n := strings.Count(logs.String(), "SKILLS_SCRIPTS_RUNNERS"); n != len(tc.warns) {
				t.Errorf("%d warnings naming SKILLS_SCRIPTS_RUNNERS, want %d:\n%s", n, len(tc.warns), logs)
			}
			for _, w := range tc.warns {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, logs)
				}
			}
		})
	}
}
