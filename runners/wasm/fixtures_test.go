package wasm_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/runners/runnertest"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// guest returns the path of testdata/guest built with GOOS=wasip1 GOARCH=wasm,
// once per test process. The guest does what its file name says (see
// testdata/guest/main.go): the runnertest behaviours, or the probe operations.
func guest(tb testing.TB) string {
	tb.Helper()
	testenv.RequireTool(tb, "go")
	buildOnce.Do(func() { buildDir, buildErr = buildGuest() })
	if buildErr != nil {
		tb.Fatalf("building the wasm guest: %v", buildErr)
	}
	return filepath.Join(buildDir, "guest.wasm")
}

// sharedCacheDir is a compilation cache shared by the engines of this test
// process, so each test does not compile the guest again. It lives in the
// user's cache directory, so the next run of the tests does not compile the
// guest either: under -race, where wazero's compiler is instrumented, that
// costs about 11 s of CPU on every run. Entries are keyed by the module's
// bytes and written atomically; wazero cannot tell its own version in a test
// binary ("dev"), so the directory is per wazero version of go.mod. Deleting
// it is safe. Without a user cache directory it is per process.
func sharedCacheDir(tb testing.TB) string {
	guest(tb)
	cacheOnce.Do(func() {
		cacheDir = filepath.Join(buildDir, "cache")
		user, err := os.UserCacheDir()
		if err != nil {
			return
		}
		root, err := repoRoot()
		if err != nil {
			return
		}
		mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err != nil {
			return
		}
		if m := regexp.MustCompile(`(?m)^\s*github\.com/tetratelabs/wazero (v\S+)`).FindSubmatch(mod); m != nil {
			cacheDir = filepath.Join(user, "skills-mcp-test", "wasm-compilation", "wazero-"+string(m[1]))
		}
	})
	return cacheDir
}

var (
	cacheOnce sync.Once
	cacheDir  string
)

func buildGuest() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("finding the go tool: %w", err)
	}
	dir, err := os.MkdirTemp("", "skills-mcp-wasm-guests-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(goTool, "build", "-o", filepath.Join(dir, "guest.wasm"), "./runners/wasm/testdata/guest")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("go build ./runners/wasm/testdata/guest: %w\n%s", err, msg)
	}
	return dir, nil
}

// repoRoot walks up from the test's working directory to the directory holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test directory")
		}
		dir = parent
	}
}

// copyGuest copies the guest into dir as file and returns its path.
func copyGuest(tb testing.TB, dir, file string) string {
	tb.Helper()
	b, err := os.ReadFile(guest(tb))
	if err != nil {
		tb.Fatal(err)
	}
	dst := filepath.Join(dir, file)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// fixtures provides the conformance scripts: the guest copied as
// "<behaviour>.wasm", a name it acts on.
type fixtures struct{}

func (fixtures) Script(t *testing.T, dir string, b runnertest.Behaviour) string {
	t.Helper()
	file := string(b) + ".wasm"
	copyGuest(t, dir, file)
	return file
}

// newRunner returns a runner with opts, closed at the end of the test. It
// uses the test process's shared compilation cache unless opts give a
// cache directory of their own.
func newRunner(tb testing.TB, opts ...wasm.Option) *wasm.Runner {
	tb.Helper()
	r, err := wasm.New(append([]wasm.Option{wasm.WithCacheDir(sharedCacheDir(tb))}, opts...)...)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() { _ = r.Close(context.Background()) })
	return r
}

// probeSkill makes a skill directory holding the guest as scripts/probe.wasm,
// and a request running probe operation op with args, in the skill directory.
func probeSkill(tb testing.TB, op string, args map[string]string) core.RunRequest {
	tb.Helper()
	dir := tb.TempDir()
	file := "scripts/probe.wasm"
	all := map[string]string{"op": op}
	for k, v := range args {
		all[k] = v
	}
	return core.RunRequest{
		ScriptPath: copyGuest(tb, dir, file),
		File:       file,
		SkillDir:   dir,
		Dir:        dir,
		Args:       all,
	}
}

// run runs req on r and fails the test on an error.
func run(tb testing.TB, r *wasm.Runner, req core.RunRequest) core.RunResult {
	tb.Helper()
	res, err := r.Run(context.Background(), req)
	if err != nil {
		tb.Fatalf("Run(%s): %v", req.File, err)
	}
	return res
}

// skillWith makes a skill directory holding the guest as file (which chooses
// its behaviour), and a request for it with no args, in the skill directory.
func skillWith(tb testing.TB, file string) core.RunRequest {
	tb.Helper()
	dir := tb.TempDir()
	return core.RunRequest{
		ScriptPath: copyGuest(tb, dir, file),
		File:       file,
		SkillDir:   dir,
		Dir:        dir,
		Args:       map[string]string{},
	}
}
