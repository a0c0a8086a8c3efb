package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/cmd/skillscmdtest"
)

// binPath is this module's binary, built once for the subprocess tests.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "custom-plugins-bin-")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "custom-plugins")
	if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("building custom-plugins: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestProtocol: the custom build serves the bundled examples and passes the
// same protocol suite as skills-mcp.
func TestProtocol(t *testing.T) {
	skillscmdtest.Protocol(t, binPath, filepath.Join("..", "skills"))
}

// tree writes a skill "text/shout" with a server script shout.upper and a
// config.yaml with config.
func tree(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml":    config,
		"text/_index.md": "---\ndescription: Text tools\nkeywords: [text]\n---\n# Text\n",
		"text/shout.md": "---\ndescription: Shout a greeting in capitals\nkeywords: [shout, greeting, capitals]\n" +
			"scripts:\n  - { file: scripts/shout.upper, execution: server }\n---\n# Shout\nRun the script.\n",
		"text/shout/scripts/shout.upper": "hello, world\nsecond line\n",
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

const allowUpper = "scripts:\n  allowed_extensions: [.sh, .upper]\n"

// cli runs the binary with env (over a minimal environment) and returns its streams and exit code.
func cli(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_STATE_DIR=" + t.TempDir()}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// connect starts the binary as a stdio MCP server and returns a client session.
func connect(t *testing.T, env ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(binPath)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_STATE_DIR=" + t.TempDir()}, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "custom-plugins-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func TestUpperRunner(t *testing.T) {
	const want = "HELLO, WORLD\nSECOND LINE\n"
	t.Run("run subcommand", func(t *testing.T) {
		dir := tree(t, allowUpper)
		stdout, stderr, code := cli(t, []string{"SKILLS_DIR=" + dir}, "run", "text/shout", "scripts/shout.upper")
		if code != 0 || stdout != want {
			t.Errorf("run: exit %d, stdout %q, want 0 and %q (stderr %s)", code, stdout, want, stderr)
		}
	})
	t.Run("run_script over stdio", func(t *testing.T) {
		cs := connect(t, "SKILLS_DIR="+tree(t, allowUpper))
		defer cs.Close()
		text, isErr := callText(t, cs, "run_script", map[string]any{"skill_path": "text/shout", "file": "scripts/shout.upper", "args": map[string]any{}})
		var got struct {
			Success bool   `json:"success"`
			Stdout  string `json:"stdout"`
		}
		if err := json.Unmarshal([]byte(text), &got); err != nil || isErr || !got.Success || got.Stdout != want {
			t.Errorf("run_script = %s (isError %v), want success with stdout %q", text, isErr, want)
		}
	})
	// The allow-list stays the gate: a registered runner does not widen it.
	t.Run("extension not allowed", func(t *testing.T) {
		dir := tree(t, "scripts:\n  allowed_extensions: [.sh]\n")
		stdout, stderr, code := cli(t, []string{"SKILLS_DIR=" + dir}, "run", "text/shout", "scripts/shout.upper")
		if code == 0 || !strings.Contains(stderr, ".upper") || strings.Contains(stdout, "HELLO") {
			t.Errorf("run: exit %d, stdout %q, stderr %q; want a refusal naming .upper", code, stdout, stderr)
		}
	})
}

func TestLinesSink(t *testing.T) {
	dir := tree(t, allowUpper+"analytics:\n  enabled: true\n")
	sinkFile := filepath.Join(t.TempDir(), "events.jsonl")
	cs := connect(t, "SKILLS_DIR="+dir, "SKILLS_ANALYTICS_SINK=lines", "SKILLS_CONFIG="+operatorSettings(t, "plugins:\n  sinks:\n    lines:\n      file: "+sinkFile+"\n"))
	if text, isErr := callText(t, cs, "get_skill", map[string]any{"context": "shout a greeting"}); isErr {
		t.Fatalf("get_skill: %s", text)
	}
	if text, isErr := callText(t, cs, "run_script", map[string]any{"skill_path": "text/shout", "file": "scripts/shout.upper", "args": map[string]any{}}); isErr {
		t.Fatalf("run_script: %s", text)
	}
	// Events are published every 30 s; closing the session shuts the server
	// down, which must deliver everything still queued.
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	f, err := os.Open(sinkFile)
	if err != nil {
		t.Fatalf("sink file: %v", err)
	}
	defer f.Close()
	var types []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ev struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q is not one JSON event: %v", sc.Text(), err)
		}
		types = append(types, ev.Type)
	}
	if got := strings.Join(types, ","); !strings.Contains(got, "skill_served") || !strings.Contains(got, "script_executed") {
		t.Errorf("events = %s, want skill_served and script_executed", got)
	}
}

func TestSinkSelectionErrors(t *testing.T) {
	const base = allowUpper + "analytics:\n  enabled: true\n"
	tests := []struct {
		name    string
		content string // more of config.yaml
		env     []string
		want    string
	}{
		{"unknown name", "", []string{"SKILLS_ANALYTICS_SINK=nope"}, `sink "nope": not found (known: http, jsonl, lines, log, otlp)`},
		{"lines without its file", "", []string{"SKILLS_ANALYTICS_SINK=lines"}, "plugins.sinks.lines.file is not set"},
		{"a wrong type in its section, at its line", "", []string{"SKILLS_ANALYTICS_SINK=lines",
			"SKILLS_CONFIG=" + operatorSettings(t, "plugins:\n  sinks:\n    lines:\n      file: [a, b]\n")}, ":4: plugins.sinks.lines.file: want a string, got a list"},
		// A plugin's section is the operator's: the content's is ignored.
		{"its section in the content", "plugins:\n  sinks:\n    lines:\n      file: /tmp/x\n", []string{"SKILLS_ANALYTICS_SINK=lines"},
			"plugins.sinks.lines.file is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, base+tt.content)
			_, stderr, code := cli(t, append([]string{"SKILLS_DIR=" + dir}, tt.env...), "serve")
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("serve: exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
}

// operatorSettings writes the operator's settings file (SKILLS_CONFIG),
// outside the content, and returns its path.
func operatorSettings(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skills-mcp.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateKnowsThePlugin: validate, in this build, does not warn that
// .upper has no runner.
func TestValidateKnowsThePlugin(t *testing.T) {
	dir := tree(t, allowUpper)
	stdout, stderr, code := cli(t, nil, "validate", dir)
	if code != 0 || strings.Contains(stdout+stderr, "no runner") {
		t.Errorf("validate: exit %d\n%s%s\nwant exit 0 and no 'no runner' warning", code, stdout, stderr)
	}
}

func TestExactNameMatcher(t *testing.T) {
	t.Run("search subcommand", func(t *testing.T) {
		dir := tree(t, "matching:\n  matcher: exact-name\n")
		tests := []struct {
			context string
			want    string // a skill path, or "" for no match
		}{
			{"shout", "text/shout"},
			{"text/shout", "text/shout"},
			{"shout a greeting", ""},
			{"Shout", ""},
			{"text", "text/_index"},
		}
		for _, tt := range tests {
			stdout, stderr, code := cli(t, []string{"SKILLS_DIR=" + dir}, "search", "--json", tt.context)
			found := strings.Contains(stdout, `"`+tt.want+`"`)
			if tt.want == "" && (code != 1 || strings.Contains(stdout, "text/")) || tt.want != "" && (code != 0 || !found) {
				t.Errorf("search %q: exit %d, %s%s; want %q", tt.context, code, stdout, stderr, tt.want)
			}
		}
	})
	t.Run("get_skill over stdio", func(t *testing.T) {
		cs := connect(t, "SKILLS_DIR="+tree(t, ""), "SKILLS_MATCHER=exact-name")
		defer cs.Close()
		if text, isErr := callText(t, cs, "get_skill", map[string]any{"context": "shout"}); isErr || !strings.Contains(text, `"skill_path":"text/shout"`) {
			t.Errorf("get_skill(shout) = %s, want text/shout", text)
		}
		if text, _ := callText(t, cs, "get_skill", map[string]any{"context": "shout a greeting in capitals"}); strings.Contains(text, `"skill_path":"text/shout"`) {
			t.Errorf("get_skill(a description) = %s, want no match from exact-name", text)
		}
	})
	t.Run("unknown name lists the known ones", func(t *testing.T) {
		_, stderr, code := cli(t, []string{"SKILLS_DIR=" + tree(t, ""), "SKILLS_MATCHER=fuzzy"}, "search", "shout")
		if want := `matcher "fuzzy": not found (known: auto, exact-name, hybrid, keyword, ranked)`; code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("search: exit %d, stderr %q; want 2 and %q", code, stderr, want)
		}
	})
}
