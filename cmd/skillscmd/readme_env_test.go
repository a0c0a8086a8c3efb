package skillscmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/config"
)

// TestKnownEnvHoldsEveryKeysVariable: the variable of every row of the
// table of keys, and SKILLS_CONFIG, are known (never called a misspelling).
func TestKnownEnvHoldsEveryKeysVariable(t *testing.T) {
	t.Parallel()
	want := []string{config.EnvOperatorFile}
	for _, k := range config.Keys() {
		for _, name := range strings.Split(k.Env, ", ") {
			if strings.HasPrefix(name, "SKILLS_") {
				want = append(want, name)
			}
		}
	}
	for _, name := range want {
		if !slices.Contains(knownEnv, name) {
			t.Errorf("knownEnv lacks %s", name)
		}
	}
}

// TestReadmeNamesEveryVariableAndFlag keeps the README's table of variables
// and flags whole: every environment variable the command reads (a literal
// getenv("…") in its sources or the telemetry plugin's) and every flag of
// serve has a row.
func TestReadmeNamesEveryVariableAndFlag(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `") || strings.HasPrefix(line, "| |") {
			table.WriteString(line + "\n")
		}
	}
	// Read by the process but not settings: the shell's, or the tests' own.
	notSettings := map[string]bool{"HOME": true, "PATH": true, "SKILLS_HARDEN": true, "SKILLS_BENCH_CORPORA": true}
	getenv := regexp.MustCompile(`[Gg]etenv\("([A-Z][A-Z0-9_]*)"\)`)
	var files []string
	for _, glob := range []string{"*.go", "../../internal/otelsetup/*.go", "../../internal/config/*.go"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	vars := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range getenv.FindAllStringSubmatch(string(src), -1) {
			vars[m[1]] = true
		}
	}
	for _, name := range []string{"ANALYTICS_ENDPOINT", "REFRESH_INTERVAL_MINUTES", "SKILLS_SCRIPTS_MAX_CONCURRENT", "SKILLS_SCRIPTS_WRITE_ROOTS",
		"SKILLS_SCRIPTS_SANDBOX", "SKILLS_SCRIPTS_NETWORK", "SKILLS_SCRIPTS_READ_ROOTS", "SKILLS_SCRIPTS_MEMORY_MB", "SKILLS_SCRIPTS_ENV",
		"SKILLS_SCRIPTS_ALLOW_REMOTE", "SKILLS_WASM_MOUNTS", "SKILLS_SCRIPTS_RUNNERS", config.EnvOperatorFile} { // through constants
		vars[name] = true
	}
	for _, name := range secretEnv { // each may come from NAME_FILE
		vars[name+"_FILE"] = true
	}
	for name := range vars {
		if !notSettings[name] && !strings.Contains(table.String(), "`"+name+"`") {
			t.Errorf("README: no row for the environment variable %s", name)
		}
	}
	out, _ := exec.Command(binPath, "serve", "--help").CombinedOutput()
	flags := regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(string(out), -1)
	if len(flags) == 0 {
		t.Fatalf("serve --help lists no flags:\n%s", out)
	}
	for _, m := range flags {
		if !strings.Contains(table.String(), "`--"+m[1]) {
			t.Errorf("README: no row for serve's flag --%s", m[1])
		}
	}
}
