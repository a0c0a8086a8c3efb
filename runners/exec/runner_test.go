package exec_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/runners/exec"
	"github.com/skills-mcp/skills-mcp/runners/runnertest"
)

func requireProgram(t *testing.T, program string) {
	t.Helper()
	testenv.RequireTool(t, program)
}

func newRunner(t *testing.T, command string, opts ...exec.Option) *exec.Runner {
	t.Helper()
	r, err := exec.New(command, opts...)
	if err != nil {
		t.Fatalf("New(%q): %v", command, err)
	}
	return r
}

// request writes a script named name with body into a fresh skill directory
// and returns a request for it.
func request(t *testing.T, name, body string, args map[string]string) core.RunRequest {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return core.RunRequest{
		ScriptPath: filepath.Join(dir, name),
		File:       name,
		SkillDir:   dir,
		Dir:        dir,
		Args:       args,
	}
}

// runOK runs req with a generous safety deadline and fails on an error.
func runOK(t *testing.T, r *exec.Runner, req core.RunRequest) core.RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, req)
	if err != nil {
		t.Fatalf("Run(%s): %v", req.File, err)
	}
	return res
}

func TestConformance(t *testing.T) {
	requireProgram(t, "bash")
	runnertest.Run(t, newRunner(t, "bash"), bashFixtures{})
}

// TestRunawayScriptIsStopped: a bash loop printing without end is stopped at
// its timeout and its output capped, through the core's wrapper.
func TestRunawayScriptIsStopped(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	runnertest.Runaway(t, newRunner(t, "bash", exec.WithGrace(time.Second)), func(t *testing.T, dir string) string {
		return writeScript(t, dir, "loop.sh", "while :; do echo xxxxxxxxxxxxxxxx; done\n")
	})
}

// TestConfinedConformance: a bash runner built with a confinement runs its
// scripts through the core's launcher, and its result says so.
func TestConfinedConformance(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	r := newRunner(t, "bash", exec.WithConfinement(public(confinement(t, launch.ConfineOptions{}))))
	runnertest.Confined(t, r, func(t *testing.T, dir string) string {
		return writeScript(t, dir, "hello.sh", "echo hello\n")
	})
}

func TestNewRejectsEmptyCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, command string }{
		{"empty", ""},
		{"blanks", " \t\n "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := exec.New(tc.command)
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("New(%q) = %v, %v; want an error wrapping %v", tc.command, r, err, core.ErrInvalidArgument)
			}
		})
	}
}

func TestMultiWordRunner(t *testing.T) {
	t.Parallel()
	const bashScript = "false\necho after\n"
	const pyScript = "import sys\nprint(sys.stdout.write_through)\n"
	for _, tc := range []struct {
		name       string
		command    string
		program    string
		file, body string
		wantString string
		wantExit   int
		wantStdout string
	}{
		{"bash alone keeps going", "bash", "bash", "s.sh", bashScript, "bash", 0, "after\n"},
		{"bash -e stops at the first failure", "bash -e", "bash", "s.sh", bashScript, "bash -e", 1, ""},
		{"extra blanks are ignored", "  bash \t -e  ", "bash", "s.sh", bashScript, "bash -e", 1, ""},
		{"python3 buffers a pipe", "python3", "python3", "s.py", pyScript, "python3", 0, "False\n"},
		{"python3 -u writes through", "python3 -u", "python3", "s.py", pyScript, "python3 -u", 0, "True\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireProgram(t, tc.program)
			r := newRunner(t, tc.command)
			if got := r.String(); got != tc.wantString {
				t.Errorf("String() = %q, want %q", got, tc.wantString)
			}

			res := runOK(t, r, request(t, tc.file, tc.body, nil))

			if res.ExitCode != tc.wantExit || res.Stdout != tc.wantStdout {
				t.Errorf("got exit %d stdout %q, want exit %d stdout %q (stderr %q)",
					res.ExitCode, res.Stdout, tc.wantExit, tc.wantStdout, res.Stderr)
			}
		})
	}
}

func TestMissingProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, command, program string }{
		{"single word", "no-such-runner-3f9a", "no-such-runner-3f9a"},
		{"with arguments", "no-such-runner-3f9a --flag x", "no-such-runner-3f9a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, tc.command)

			_, err := r.Run(t.Context(), request(t, "s.sh", "echo hi\n", nil))

			want := `runner program "` + tc.program + `" not found in PATH`
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Run error = %v, want one containing %q", err, want)
			}
			if !errors.Is(err, osexec.ErrNotFound) {
				t.Errorf("Run error = %v, want it to wrap exec.ErrNotFound", err)
			}
		})
	}
}

func TestInvalidArgsAreRejectedBeforeStart(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	for _, tc := range []struct {
		name     string
		args     map[string]string
		wantName string
	}{
		{"dot in name", map[string]string{"bad.name": "x"}, "bad.name"},
		{"empty name", map[string]string{"": "x"}, "empty name"},
		{"space in name", map[string]string{"two words": "x"}, "two words"},
		{"dollar in name", map[string]string{"a$b": "x"}, "a$b"},
		{"non-ASCII name", map[string]string{"nämé": "x"}, "nämé"},
		{"equals in name", map[string]string{"a=b": "x"}, "a=b"},
		{"NUL in value", map[string]string{"ok": "a\x00b"}, "ok"},
		{"names colliding once upper-cased", map[string]string{"foo": "1", "FOO": "2"}, "SKILL_ARG_FOO"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request(t, "s.sh", "touch ran\n", tc.args)

			_, err := newRunner(t, "bash").Run(t.Context(), req)

			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("Run error = %v, want one wrapping %v", err, core.ErrInvalidArgument)
			}
			if !strings.Contains(err.Error(), tc.wantName) {
				t.Errorf("Run error = %q, want it to name %q", err, tc.wantName)
			}
			if _, statErr := os.Stat(filepath.Join(req.Dir, "ran")); !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("script ran despite the invalid args (stat: %v)", statErr)
			}
		})
	}
}

func TestInvalidRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		mutate func(*core.RunRequest)
	}{
		{"relative script path", func(r *core.RunRequest) { r.ScriptPath = "s.sh" }},
		{"empty script path", func(r *core.RunRequest) { r.ScriptPath = "" }},
		{"relative skill dir", func(r *core.RunRequest) { r.SkillDir = "skill" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request(t, "s.sh", "echo hi\n", nil)
			tc.mutate(&req)

			_, err := newRunner(t, "bash").Run(t.Context(), req)

			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("Run error = %v, want one wrapping %v", err, core.ErrInvalidArgument)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"success", "exit 0\n", 0},
		{"explicit code", "exit 42\n", 42},
		{"killed by SIGUSR1", "kill -USR1 $$\nsleep 30\n", 128 + 10},
		{"killed by SIGKILL without a timeout", "kill -KILL $$\nsleep 30\n", 137},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runOK(t, newRunner(t, "bash"), request(t, "s.sh", tc.body, nil))

			if res.ExitCode != tc.want {
				t.Errorf("exit code = %d, want %d", res.ExitCode, tc.want)
			}
			if res.TimedOut || strings.Contains(res.Stderr, core.TimeoutMarker) {
				t.Errorf("TimedOut = %v, stderr %q; want no timeout", res.TimedOut, res.Stderr)
			}
		})
	}
}

func TestEnvDoesNotLeakToken(t *testing.T) {
	requireProgram(t, "bash")
	t.Setenv("GITHUB_TOKEN", "ghp-secret-token")
	t.Setenv("SKILLS_MCP_GIT_URL", "https://example.invalid/skills.git")
	req := request(t, "env.sh", "env\n", map[string]string{"target": "prod"})

	res := runOK(t, newRunner(t, "bash"), req)

	if strings.Contains(res.Stdout, "ghp-secret-token") || strings.Contains(res.Stdout, "GITHUB_TOKEN") {
		t.Errorf("script environment holds the token:\n%s", res.Stdout)
	}
	// bash itself exports PWD, SHLVL and _ to the commands it runs.
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "TMPDIR": true,
		"SKILL_DIR": true, "SKILL_ARG_TARGET": true, "PWD": true, "SHLVL": true, "_": true,
		launch.RunMarkerEnv: true} // the run marker finds what escapes the group (issue 16, item 9)
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n") {
		name, value, _ := strings.Cut(line, "=")
		got[name] = value
		if !allowed[name] {
			t.Errorf("script environment holds %q, want only %v", line, allowed)
		}
	}
	if got["SKILL_DIR"] != req.SkillDir {
		t.Errorf("SKILL_DIR = %q, want %q", got["SKILL_DIR"], req.SkillDir)
	}
	if got["SKILL_ARG_TARGET"] != "prod" {
		t.Errorf("SKILL_ARG_TARGET = %q, want %q", got["SKILL_ARG_TARGET"], "prod")
	}
}

func TestWorkingDirectory(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	req := request(t, "pwd.sh", "pwd -P\n", nil)
	sub := filepath.Join(req.SkillDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dir, want string }{
		{"given directory", sub, sub},
		{"empty means the skill directory", "", req.SkillDir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := filepath.EvalSymlinks(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			req.Dir = tc.dir

			res := runOK(t, newRunner(t, "bash"), req)

			if got := strings.TrimSuffix(res.Stdout, "\n"); got != want {
				t.Errorf("pwd = %q, want %q", got, want)
			}
		})
	}
}

func TestContextStopsTheScript(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	const body = "echo started\ntouch \"$SKILL_ARG_READY\"\nsleep 30\n"
	t.Run("deadline counts as a timeout", func(t *testing.T) {
		req := request(t, "s.sh", body, map[string]string{"ready": filepath.Join(t.TempDir(), "ready")})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		var logs bytes.Buffer
		logger := hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})

		res, err := newRunner(t, "bash", exec.WithGrace(200*time.Millisecond), exec.WithLogger(logger)).Run(ctx, req)

		if err != nil {
			t.Fatalf("Run error = %v, want none", err)
		}
		if !strings.Contains(logs.String(), "stopping script") || !strings.Contains(logs.String(), "reason=timeout") {
			t.Errorf("logs do not report the timeout:\n%s", logs.String())
		}
		if !res.TimedOut || res.ExitCode != core.TimeoutExitCode || !strings.HasSuffix(res.Stderr, core.TimeoutMarker) {
			t.Errorf("got TimedOut %v exit %d stderr %q, want a timeout result", res.TimedOut, res.ExitCode, res.Stderr)
		}
	})
	t.Run("cancellation is an error with the partial result", func(t *testing.T) {
		ready := filepath.Join(t.TempDir(), "ready")
		req := request(t, "s.sh", body, map[string]string{"ready": ready})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go func() {
			defer cancel()
			for range 2000 { // at most about 20 s, then cancel anyway
				if _, err := os.Stat(ready); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()

		res, err := newRunner(t, "bash", exec.WithGrace(200*time.Millisecond)).Run(ctx, req)

		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run error = %v, want one wrapping context.Canceled", err)
		}
		if res.TimedOut || res.Stdout != "started\n" {
			t.Errorf("got TimedOut %v stdout %q, want no timeout and stdout %q", res.TimedOut, res.Stdout, "started\n")
		}
	})
	t.Run("already cancelled does not start", func(t *testing.T) {
		req := request(t, "s.sh", "touch ran\n", nil)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()

		_, err := newRunner(t, "bash").Run(ctx, req)

		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run error = %v, want one wrapping context.Canceled", err)
		}
		if _, statErr := os.Stat(filepath.Join(req.Dir, "ran")); !errors.Is(statErr, os.ErrNotExist) {
			t.Errorf("script ran with a cancelled context (stat: %v)", statErr)
		}
	})
}

func TestOutputAtExactlyTheCapIsNotTruncated(t *testing.T) {
	t.Parallel()
	requireProgram(t, "bash")
	req := request(t, "s.sh", "printf '%s' 0123456789\nprintf 'abc\\n' >&2\n", nil)
	req.MaxOutputBytes = 10

	res := runOK(t, newRunner(t, "bash"), req)

	if res.Stdout != "0123456789" || res.StdoutTruncated {
		t.Errorf("stdout %q truncated %v, want %q not truncated", res.Stdout, res.StdoutTruncated, "0123456789")
	}
	if res.Stderr != "abc\n" || res.StderrTruncated {
		t.Errorf("stderr %q truncated %v, want %q not truncated", res.Stderr, res.StderrTruncated, "abc\n")
	}
}

// WithPassEnv lets the operator's named variables through, and only them:
// the rest of the server's environment stays out.
func TestPassEnvPassesOnlyTheNamedVariables(t *testing.T) {
	t.Setenv("SKILLS_TEST_PASSED", "granted")
	t.Setenv("SKILLS_TEST_KEPT_OUT", "secret")
	requireProgram(t, "bash")
	req := request(t, "env.sh", `printf '%s|%s' "$SKILLS_TEST_PASSED" "$SKILLS_TEST_KEPT_OUT"`+"\n", nil)
	res := runOK(t, newRunner(t, "bash", exec.WithPassEnv([]string{"SKILLS_TEST_PASSED"})), req)
	if res.Stdout != "granted|" {
		t.Errorf("stdout = %q, want %q: the named variable passed, the other kept out", res.Stdout, "granted|")
	}
}
