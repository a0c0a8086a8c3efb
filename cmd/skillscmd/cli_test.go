package skillscmd

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// runCLI runs the program in-process with a minimal environment.
func runCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "HOME" {
			if v, ok := env[k]; ok {
				return v
			}
			return t.TempDir()
		}
		return env[k]
	}
	code = New(nil).Run(context.Background(), args, io.NopCloser(strings.NewReader("")), &out, &errb, getenv)
	return out.String(), errb.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (run go test ./cmd -run %s -update): %v", t.Name(), err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if intended)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestCommandsGolden(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "bash")
	examples := map[string]string{"SKILLS_DIR": examplesDir(t)}
	ranked := map[string]string{"SKILLS_DIR": examplesDir(t), "SKILLS_MATCHER": "ranked"}
	problems := filepath.Join("..", "..", "testdata", "problems") // relative: the golden output names it
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"list", examples, []string{"list"}, exitOK},
		{"list-subtree", examples, []string{"list", "ui"}, exitOK},
		{"list-json", examples, []string{"list", "--json", "api"}, exitOK},
		{"list-unknown", examples, []string{"list", "nope"}, exitFailed},
		{"search-match", examples, []string{"search", "add", "login", "to", "the", "React", "app"}, exitOK},
		{"search-ambiguous", examples, []string{"search", "jwt", "login"}, exitOK},
		{"search-none", examples, []string{"search", "kubernetes", "helm", "chart"}, exitFailed},
		{"search-explain", examples, []string{"search", "--explain", "REST", "pagination", "for", "the", "api"}, exitOK},
		{"search-json", examples, []string{"search", "--json", "jwt", "middleware"}, exitOK},
		{"search-explain-ranked", ranked, []string{"search", "--explain", "add", "a", "login", "form", "to", "the", "React", "app"}, exitOK},
		{"get", examples, []string{"get", "ui/react/auth"}, exitOK},
		{"get-unknown", examples, []string{"get", "ui/vue"}, exitFailed},
		{"run", examples, []string{"run", "ui/react/auth", "scripts/check-auth-config.sh", "--arg", "client_id=abc", "--arg", "redirect_url=https://app.example.com/cb"}, exitOK},
		{"run-failing", examples, []string{"run", "ui/react/auth", "scripts/check-auth-config.sh", "--arg", "client_id=", "--arg", "redirect_url=http://insecure"}, exitFailed},
		{"run-missing-args", examples, []string{"run", "ui/react/auth", "scripts/check-auth-config.sh"}, exitFailed},
		{"validate-examples", nil, []string{"validate", examplesDir(t)}, exitOK},
		{"validate-problems", nil, []string{"validate", problems}, exitFailed},
		{"validate-problems-json", nil, []string{"validate", "--json", problems}, exitFailed},
		{"usage-search", examples, []string{"search"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tt.env, tt.args...)
			if code != tt.code {
				t.Errorf("exit code = %d, want %d\nstderr: %s", code, tt.code, stderr)
			}
			golden(t, tt.name, stdout+"--- stderr\n"+stderr)
		})
	}
}

func TestInitThenValidate(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "bash")
	dir := filepath.Join(t.TempDir(), "content")
	stdout, stderr, code := runCLI(t, nil, "init", dir)
	if code != exitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+filepath.Join(dir, "config.yaml")) {
		t.Errorf("init output: %s", stdout)
	}
	stdout, stderr, code = runCLI(t, nil, "validate", dir)
	if code != exitOK || !strings.Contains(stdout, "0 errors, 0 warnings") {
		t.Errorf("validate after init: exit %d\n%s%s", code, stdout, stderr)
	}
	// The starter is served and matched as written.
	stdout, _, code = runCLI(t, map[string]string{"SKILLS_DIR": filepath.Join(dir, "skills")}, "search", "code", "review", "checklist")
	if code != exitOK || !strings.Contains(stdout, "match: guides/code-review") {
		t.Errorf("search on the starter: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, map[string]string{"SKILLS_DIR": filepath.Join(dir, "skills")}, "run", "guides/code-review", "scripts/check-size.sh", "--arg", "changed_lines=120")
	if code != exitOK || !strings.Contains(stdout, "Size OK: 120 lines (limit 400).") {
		t.Errorf("run on the starter: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := runCLI(t, nil, "init", dir); code != exitUsage || !strings.Contains(stderr, "already exists") {
		t.Errorf("second init: exit %d, %s; want 2 and no overwrite", code, stderr)
	}
}

func TestConfigReferenceMatchesDefaults(t *testing.T) {
	t.Parallel()
	ref, err := config.Reference()
	if err != nil {
		t.Fatal(err)
	}
	var uncommented strings.Builder
	for _, line := range strings.Split(ref, "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok && !strings.HasPrefix(line, "# skills-mcp") {
			uncommented.WriteString(rest + "\n")
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(uncommented.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, nil, "validate", dir)
	if code != exitOK || strings.Contains(stdout, "config.yaml") {
		t.Errorf("the uncommented reference is not a clean config: exit %d\n%s%s", code, stdout, stderr)
	}
	golden(t, "config-reference", ref)
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	// The built binary: a test binary of a library package carries no
	// dependency versions in its build info.
	out, err := exec.Command(binPath, "version").Output()
	stdout, code := string(out), exitOK
	if err != nil {
		code = exitFailed
	}
	if code != exitOK || !strings.HasPrefix(stdout, "skills-mcp ") || !strings.Contains(stdout, "(commit ") ||
		!strings.Contains(stdout, "go-sdk v1.8") || !strings.Contains(stdout, "2025-06-18") {
		t.Errorf("version: %d %q", code, stdout)
	}
	for _, cmd := range []string{"list", "search", "get", "validate", "run", "init", "serve"} {
		_, stderr, code := runCLI(t, nil, cmd, "--help")
		if code != exitOK || !strings.Contains(stderr, "Usage") && !strings.Contains(stderr, "-skills-dir") {
			t.Errorf("%s --help: exit %d, %q", cmd, code, stderr)
		}
	}
}

// TestReadmeConfigReference keeps the README's configuration reference equal to
// the one generated from config.Default.
func TestReadmeConfigReference(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- config-reference:start -->\n```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```\n<!-- config-reference:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no config-reference block")
	}
	ref, err := config.Reference()
	if err != nil {
		t.Fatal(err)
	}
	if block != ref {
		t.Errorf("README's config reference differs from the defaults; paste this between the markers:\n%s", ref)
	}
}

// TestInitAgentSkillsThenServe: `init --format agent-skills` writes Agent
// Skills folders (issue 29) that validate passes, that are served and
// matched, whose declared server script runs, and whose other files are
// listed beside it.
func TestInitAgentSkillsThenServe(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "content")
	if _, stderr, code := runCLI(t, nil, "init", "--format", "agent-skills", dir); code != exitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, nil, "validate", dir)
	if code != exitOK || !strings.Contains(stdout, "0 errors, 0 warnings") {
		t.Errorf("validate after init: exit %d\n%s%s", code, stdout, stderr)
	}
	env := map[string]string{"SKILLS_DIR": filepath.Join(dir, "skills")}
	if stdout, _, code = runCLI(t, env, "search", "open", "a", "pull", "request", "for", "review"); code != exitOK || !strings.Contains(stdout, "code-review") {
		t.Errorf("search on the starter: exit %d\n%s", code, stdout)
	}
	if stdout, _, code = runCLI(t, env, "run", "code-review", "scripts/check-size.sh", "--arg", "changed_lines=120"); code != exitOK || !strings.Contains(stdout, "Size OK: 120 lines") {
		t.Errorf("run on the starter: exit %d\n%s", code, stdout)
	}
	if stdout, _, code = runCLI(t, env, "list"); code != exitOK || !strings.Contains(stdout, "code-review  [code-review]") || !strings.Contains(stdout, "(1 asset, 1 script)") {
		t.Errorf("list on the starter: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := runCLI(t, nil, "init", "--format", "agent", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "want tree or agent-skills") {
		t.Errorf("init --format agent: exit %d\n%s", code, stderr)
	}
}

// TestReadmeKeysTable keeps the README's table of who may set each key equal
// to the one generated from config.Keys.
func TestReadmeKeysTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- config-keys:start -->\n")
	block, _, ok2 := strings.Cut(rest, "<!-- config-keys:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no config-keys block")
	}
	if want := config.KeysTable(); block != want {
		t.Errorf("README's table of keys differs; paste this between the markers:\n%s", want)
	}
}
