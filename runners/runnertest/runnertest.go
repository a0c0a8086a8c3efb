package runnertest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// Behaviour names one thing a conformance script does.
type Behaviour string

// The behaviours every runner's fixtures must provide.
const (
	// PrintArgs prints each SKILL_ARG_* environment variable as a NAME=value
	// line, sorted by name, to stdout (values verbatim, newlines included).
	PrintArgs Behaviour = "print-args"
	// ExitWithStderr writes "to-stdout\n" to stdout and "to-stderr\n" to stderr,
	// then exits with code 3.
	ExitWithStderr Behaviour = "exit-3"
	// SleepForever writes "started\n" to stdout, then sleeps 30 s (a timeout must kill it).
	SleepForever Behaviour = "sleep"
	// Flood writes 200000 bytes of 'x' to stdout and 200000 bytes of 'y' to
	// stderr, then exits 0.
	Flood Behaviour = "flood"
	// ReadStdin reads stdin to EOF and prints "read N bytes\n" (N must be 0:
	// stdin is closed or empty).
	ReadStdin Behaviour = "read-stdin"
	// PrintEnv prints the whole environment, one NAME=value per line.
	PrintEnv Behaviour = "print-env"
)

// Fixtures makes scripts for one runner.
type Fixtures interface {
	// Script writes a script with behaviour b into dir and returns its file name relative to dir.
	Script(t *testing.T, dir string, b Behaviour) string
}

// safetyDeadline bounds every run of the suite, so a runner that ignores its
// timeout fails the suite instead of hanging it. It is not a speed assertion.
const safetyDeadline = 2 * time.Minute

// Run runs the whole suite against r as subtests of t. It sets environment
// variables with t.Setenv, so t and its ancestors must not be parallel.
func Run(t *testing.T, r core.Runner, f Fixtures) {
	t.Helper()
	t.Run("args-arrive-as-env-verbatim", func(t *testing.T) { testArgs(t, r, f) })
	t.Run("exit-code-and-stderr", func(t *testing.T) { testExitCode(t, r, f) })
	t.Run("timeout-kills-and-keeps-partial-output", func(t *testing.T) { testTimeout(t, r, f) })
	t.Run("output-cap", func(t *testing.T) { testOutputCap(t, r, f) })
	t.Run("stdin-is-closed", func(t *testing.T) { testStdin(t, r, f) })
	t.Run("minimal-env", func(t *testing.T) { testMinimalEnv(t, r, f) })
}

// setup writes the fixture for b into a fresh skill directory and returns a
// request for it, with no timeout and no cap.
func setup(t *testing.T, f Fixtures, b Behaviour) core.RunRequest {
	t.Helper()
	dir := t.TempDir()
	name := f.Script(t, dir, b)
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Fatalf("fixture for %s: %v", b, err)
	}
	return core.RunRequest{
		ScriptPath: filepath.Join(dir, name),
		File:       name,
		SkillDir:   dir,
		Dir:        dir,
		Args:       map[string]string{},
	}
}

// run runs req with r as the core does, through the wrapper every runner
// gets (internal/scripts: the script opened confined and handed over, the
// timeout as ctx's deadline, the output caps, the bound of runs at once),
// under the safety deadline, and fails the test when the run does not
// return, returns an error, or reports no duration.
func run(t *testing.T, r core.Runner, req core.RunRequest) core.RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), safetyDeadline)
	defer cancel()
	type outcome struct {
		res core.RunResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := through(r, req)(ctx)
		done <- outcome{res, err}
	}()
	var got outcome
	select {
	case got = <-done:
	case <-time.After(safetyDeadline + 30*time.Second):
		t.Fatalf("Run(%s) did not return within the safety deadline %v", req.File, safetyDeadline)
	}
	if got.err != nil {
		t.Fatalf("Run(%s): unexpected error: %v", req.File, got.err)
	}
	if got.res.Duration <= 0 {
		t.Errorf("Run(%s): Duration = %v, want > 0", req.File, got.res.Duration)
	}
	return got.res
}

// through is the run of req with r as the server makes it.
func through(r core.Runner, req core.RunRequest) func(context.Context) (core.RunResult, error) {
	return func(ctx context.Context) (core.RunResult, error) {
		return scripts.NewRuns(1, nil, nil).RunFile(ctx, r, req)
	}
}

// hostile are argument values a shell would act on; they must come back verbatim.
func hostile(dir string) map[string]string {
	return map[string]string{
		"plain":     "hello",
		"mixedCase": "name upper-cased",
		"subst":     "$(touch marker)",
		"substAbs":  "$(touch " + filepath.Join(dir, "marker-abs") + ")",
		"backtick":  "`touch marker-tick`",
		"semicolon": "; rm -rf x",
		"quotes":    `a b "c" 'd'`,
		"newline":   "line1\nline2",
		"empty":     "",
		"unicode":   "héllo ✓ = ok",
		"glob":      "*",
		"dollar":    "$HOME ${PATH}",
	}
}

func testArgs(t *testing.T, r core.Runner, f Fixtures) {
	req := setup(t, f, PrintArgs)
	victim := filepath.Join(req.Dir, "x")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	req.Args = hostile(req.Dir)

	res := run(t, r, req)

	if res.ExitCode != 0 {
		t.Fatalf("exit code = %d, want 0 (stderr %q)", res.ExitCode, res.Stderr)
	}
	if got, want := res.Stdout, argLines(req.Args); got != want {
		t.Errorf("stdout:\ngot  %q\nwant %q", got, want)
	}
	for _, marker := range []string{"marker", "marker-abs", "marker-tick"} {
		if _, err := os.Stat(filepath.Join(req.Dir, marker)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("marker file %q: got stat error %v, want not-exist (an argument was interpreted by a shell)", marker, err)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("file %q removed by an argument value: %v", victim, err)
	}
}

// argLines is what PrintArgs prints for args.
func argLines(args map[string]string) string {
	values := make(map[string]string, len(args))
	names := make([]string, 0, len(args))
	for name, value := range args {
		envName := sandbox.ArgEnvPrefix + strings.ToUpper(name)
		values[envName] = value
		names = append(names, envName)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name + "=" + values[name] + "\n")
	}
	return b.String()
}

func testExitCode(t *testing.T, r core.Runner, f Fixtures) {
	req := setup(t, f, ExitWithStderr)

	res := run(t, r, req)

	if res.ExitCode != 3 {
		t.Errorf("exit code = %d, want 3", res.ExitCode)
	}
	if res.Stdout != "to-stdout\n" {
		t.Errorf("stdout = %q, want %q", res.Stdout, "to-stdout\n")
	}
	if res.Stderr != "to-stderr\n" {
		t.Errorf("stderr = %q, want %q", res.Stderr, "to-stderr\n")
	}
	if res.TimedOut || res.StdoutTruncated || res.StderrTruncated {
		t.Errorf("flags TimedOut=%v StdoutTruncated=%v StderrTruncated=%v, want all false",
			res.TimedOut, res.StdoutTruncated, res.StderrTruncated)
	}
}

func testTimeout(t *testing.T, r core.Runner, f Fixtures) {
	req := setup(t, f, SleepForever)
	req.Timeout = time.Second

	res := run(t, r, req)

	if !res.TimedOut {
		t.Errorf("TimedOut = false, want true")
	}
	if res.ExitCode != core.TimeoutExitCode {
		t.Errorf("exit code = %d, want %d", res.ExitCode, core.TimeoutExitCode)
	}
	if !strings.HasPrefix(res.Stdout, "started") {
		t.Errorf("stdout = %q, want the partial output %q kept", res.Stdout, "started")
	}
	if res.Stderr != core.TimeoutMarker && !strings.HasSuffix(res.Stderr, "\n"+core.TimeoutMarker) {
		t.Errorf("stderr = %q, want it to end with %q on its own line", res.Stderr, core.TimeoutMarker)
	}
}

func testOutputCap(t *testing.T, r core.Runner, f Fixtures) {
	req := setup(t, f, Flood)
	req.MaxOutputBytes = 1000

	res := run(t, r, req)

	if res.ExitCode != 0 {
		t.Errorf("exit code = %d, want 0", res.ExitCode)
	}
	for _, stream := range []struct {
		name      string
		got       string
		truncated bool
		fill      string
	}{
		{"stdout", res.Stdout, res.StdoutTruncated, "x"},
		{"stderr", res.Stderr, res.StderrTruncated, "y"},
	} {
		want := strings.Repeat(stream.fill, 1000) + "\n" + sandbox.TruncationNote
		if stream.got != want {
			t.Errorf("%s: got %d bytes ending %q, want 1000 bytes of %q then %q on its own line",
				stream.name, len(stream.got), tail(stream.got, 80), stream.fill, sandbox.TruncationNote)
		}
		if !stream.truncated {
			t.Errorf("%s truncated flag = false, want true", stream.name)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func testStdin(t *testing.T, r core.Runner, f Fixtures) {
	req := setup(t, f, ReadStdin)

	res := run(t, r, req)

	if res.ExitCode != 0 {
		t.Errorf("exit code = %d, want 0 (stderr %q)", res.ExitCode, res.Stderr)
	}
	if res.Stdout != "read 0 bytes\n" {
		t.Errorf("stdout = %q, want %q", res.Stdout, "read 0 bytes\n")
	}
}

func testMinimalEnv(t *testing.T, r core.Runner, f Fixtures) {
	t.Setenv("GITHUB_TOKEN", "secret-token")
	t.Setenv("SKILLS_MCP_SECRET", "secret-value")
	req := setup(t, f, PrintEnv)
	req.Args = map[string]string{"first": "one", "Second_2": "two"}

	res := run(t, r, req)

	if res.ExitCode != 0 {
		t.Fatalf("exit code = %d, want 0 (stderr %q)", res.ExitCode, res.Stderr)
	}
	env := map[string]string{}
	for _, line := range strings.Split(res.Stdout, "\n") {
		if name, value, ok := strings.Cut(line, "="); ok {
			env[name] = value
		}
	}
	for name, want := range map[string]string{"SKILL_ARG_FIRST": "one", "SKILL_ARG_SECOND_2": "two"} {
		if got, ok := env[name]; !ok || got != want {
			t.Errorf("env %s = %q (present %v), want %q", name, got, ok, want)
		}
	}
	if env[sandbox.SkillDirEnv] == "" {
		t.Errorf("env %s missing or empty, want the skill directory", sandbox.SkillDirEnv)
	}
	for _, leak := range []string{"GITHUB_TOKEN", "secret-token", "SKILLS_MCP_SECRET", "secret-value"} {
		if strings.Contains(res.Stdout, leak) {
			t.Errorf("environment printed by the script holds %q, want it not inherited:\n%s", leak, res.Stdout)
		}
	}
}

// Confined checks that r runs its scripts confined by the core's launcher:
// the script that script writes into a fresh skill directory (returning
// its file name) runs and exits 0, and its result names the confinement
// that applied (core.RunResult.Confinement). A runner plugin that starts
// its programs through the core (skillscmd's PluginContext.Program) passes
// where confinement is available; one that starts them itself does not.
// It does not set environment variables, so t may be parallel.
func Confined(t *testing.T, r core.Runner, script func(t *testing.T, dir string) string) {
	t.Helper()
	dir := t.TempDir()
	name := script(t, dir)
	req := core.RunRequest{ScriptPath: filepath.Join(dir, name), File: name, SkillDir: dir, Dir: dir, Args: map[string]string{},
		MaxOutputBytes: 1 << 20}
	res := run(t, r, req)
	if res.ExitCode != 0 {
		t.Fatalf("Run(%s): exit %d, stderr %q; want 0", name, res.ExitCode, res.Stderr)
	}
	if res.Confinement == "" {
		t.Errorf("Run(%s): the result names no confinement: the runner did not start its program through the core's launcher", name)
	}
}

// Runaway checks what the core gives every runner without code of its own
// (issue 27): script writes into a fresh skill directory a script that, run
// by r, prints without end (returning its file name). Run through the core
// with a one-second timeout and a cap of 1000 bytes, it is stopped at the
// timeout (TimedOut, core.TimeoutExitCode, core.TimeoutMarker ending stderr)
// and its stdout is the first 1000 bytes with sandbox.TruncationNote on a
// line of its own. An in-process runner passes when it streams to
// RunRequest.Stdout and returns once a write fails (or ctx is done); a
// runner that starts programs passes when it stops them at ctx's deadline.
// It does not set environment variables, so t may be parallel.
func Runaway(t *testing.T, r core.Runner, script func(t *testing.T, dir string) string) {
	t.Helper()
	dir := t.TempDir()
	name := script(t, dir)
	const limit = 1000
	req := core.RunRequest{ScriptPath: filepath.Join(dir, name), File: name, SkillDir: dir, Dir: dir, Args: map[string]string{},
		Timeout: time.Second, MaxOutputBytes: limit}
	res := run(t, r, req)
	if !res.TimedOut || res.ExitCode != core.TimeoutExitCode {
		t.Errorf("Run(%s): TimedOut %v, exit %d; want true, %d", name, res.TimedOut, res.ExitCode, core.TimeoutExitCode)
	}
	if res.Stderr != core.TimeoutMarker && !strings.HasSuffix(res.Stderr, "\n"+core.TimeoutMarker) {
		t.Errorf("Run(%s): stderr ends %q, want %q on its own line", name, tail(res.Stderr, 80), core.TimeoutMarker)
	}
	if body, ok := strings.CutSuffix(res.Stdout, "\n"+sandbox.TruncationNote); !ok || len(body) != limit || !res.StdoutTruncated {
		t.Errorf("Run(%s): stdout of %d bytes ending %q (truncated %v); want %d bytes, then %q on its own line",
			name, len(res.Stdout), tail(res.Stdout, 80), res.StdoutTruncated, limit, sandbox.TruncationNote)
	}
}
