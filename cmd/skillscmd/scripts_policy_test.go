package skillscmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/config"
	scriptrun "github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestOperatorMaxConcurrent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value string
		want  int // 0: an error
	}{
		{"", scriptrun.DefaultMaxConcurrent()},
		{"3", 3},
		{" 12 ", 12},
		{"0", 0},
		{"-2", 0},
		{"many", 0},
		{"2.5", 0},
		{"0x10", 0},
	} {
		got, err := operatorMaxConcurrent(tc.value)
		switch {
		case tc.want == 0 && (err == nil || !strings.Contains(err.Error(), "SKILLS_SCRIPTS_MAX_CONCURRENT") || !strings.Contains(err.Error(), "at least 1")):
			t.Errorf("%q: got %d, %v; want an error naming SKILLS_SCRIPTS_MAX_CONCURRENT and its range", tc.value, got, err)
		case tc.want == 0 && !errors.As(err, new(*usageError)):
			t.Errorf("%q: got %v, want a usage error (exit 2)", tc.value, err)
		case tc.want != 0 && (err != nil || got != tc.want):
			t.Errorf("%q: got %d, %v; want %d", tc.value, got, err, tc.want)
		}
	}
	if d := scriptrun.DefaultMaxConcurrent(); d < 1 || d > 8 {
		t.Errorf("default %d, want twice the cores, between 1 and 8", d)
	}
}

// TestContentMayOnlyLowerMaxConcurrent: scripts.max_concurrent in the
// content's config.yaml lowers the operator's bound, never raises it.
func TestContentMayOnlyLowerMaxConcurrent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		operator         string
		content, want    int
		warnsAboutRaised bool
	}{
		{"content keeps the operator's", "4", 0, 4, false},
		{"content lowers", "4", 2, 2, false},
		{"content equal", "4", 4, 4, false},
		{"content cannot raise", "4", 16, 4, true},
		{"content cannot raise the default", "", 1000, scriptrun.DefaultMaxConcurrent(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := config.Default()
			cfg.Scripts.MaxConcurrent = tc.content
			logs := &testlog.Buffer{}
			env := map[string]string{"SKILLS_SCRIPTS_MAX_CONCURRENT": tc.operator}
			if _, err := scriptPolicy(func(k string) string { return env[k] }, &cfg, &content{}, t.TempDir(),
				hclog.New(&hclog.LoggerOptions{Output: logs})); err != nil {
				t.Fatal(err)
			}
			if cfg.Scripts.MaxConcurrent != tc.want {
				t.Errorf("bound %d, want %d", cfg.Scripts.MaxConcurrent, tc.want)
			}
			if warned := strings.Contains(logs.String(), "scripts.max_concurrent is above the operator's bound"); warned != tc.warnsAboutRaised {
				t.Errorf("warning logged: %v, want %v\n%s", warned, tc.warnsAboutRaised, logs)
			}
		})
	}
}

// TestUnsafeWriteRootsAreRefusedAtStart: SKILLS_SCRIPTS_WRITE_ROOTS that are
// relative, missing, "/", or hold what the server trusts stop serve at start
// (exit 2) with a message naming the root and the variable.
func TestUnsafeWriteRootsAreRefusedAtStart(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, skills, projects := filepath.Join(base, "home"), filepath.Join(base, "content", "skills"), filepath.Join(base, "projects")
	for _, d := range []string{home, filepath.Join(skills, "demo"), projects} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(skills, "demo", "SKILL.md"), []byte("---\nname: demo\ndescription: A demo skill.\n---\nDemo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, roots, says string
	}{
		{"relative", "projects", "relative"},
		{"missing", filepath.Join(base, "gone"), "does not exist"},
		{"the file system root", "/", "root of the file system"},
		{"home holds the state directory", projects + ":" + home, "holds the server's state directory"},
		{"holds the skills", filepath.Join(base, "content"), "holds a skills directory"},
		{"inside the skills", filepath.Join(skills, "demo"), "lies inside a skills directory"},
		{"the executable's directory", filepath.Dir(exe), "the directory of the server's executable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SKILLS_DIR": skills, "HOME": home, "SKILLS_SCRIPTS_WRITE_ROOTS": tc.roots}
			_, stderr, code := runCLI(t, env, "serve")
			bad := tc.roots[strings.LastIndexByte(tc.roots, ':')+1:]
			if code != 2 || !strings.Contains(stderr, "SKILLS_SCRIPTS_WRITE_ROOTS") || !strings.Contains(stderr, bad) || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 naming SKILLS_SCRIPTS_WRITE_ROOTS, %s and %q", code, stderr, bad, tc.says)
			}
		})
	}
	t.Run("a safe root serves", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"SKILLS_DIR": skills, "HOME": home, "SKILLS_SCRIPTS_WRITE_ROOTS": projects}
		if _, stderr, code := runCLI(t, env, "serve"); code != 0 {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	for _, value := range []string{"0", "-1", "eight"} {
		t.Run("SKILLS_SCRIPTS_MAX_CONCURRENT="+value, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SKILLS_DIR": skills, "HOME": home, "SKILLS_SCRIPTS_MAX_CONCURRENT": value}
			if _, stderr, code := runCLI(t, env, "serve"); code != 2 || !strings.Contains(stderr, "SKILLS_SCRIPTS_MAX_CONCURRENT=\""+value+"\"") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 naming the variable and its value", code, stderr)
			}
		})
	}
}
