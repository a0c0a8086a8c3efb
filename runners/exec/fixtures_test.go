package exec_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/runners/runnertest"
)

// bashFixtures writes the conformance scripts in bash.
type bashFixtures struct{}

var bashScripts = map[runnertest.Behaviour]string{
	runnertest.PrintArgs: `for name in $(compgen -e | LC_ALL=C sort); do
  case "$name" in SKILL_ARG_*) printf '%s=%s\n' "$name" "${!name}" ;; esac
done
`,
	runnertest.ExitWithStderr: `printf 'to-stdout\n'
printf 'to-stderr\n' >&2
exit 3
`,
	runnertest.SleepForever: `echo started
sleep 30
`,
	runnertest.Flood: `head -c 200000 /dev/zero | tr '\0' x
head -c 200000 /dev/zero | tr '\0' y >&2
`,
	runnertest.ReadStdin: `n=$(wc -c)
echo "read $((n)) bytes"
`,
	runnertest.PrintEnv: `env
`,
}

func (bashFixtures) Script(t *testing.T, dir string, b runnertest.Behaviour) string {
	t.Helper()
	body, ok := bashScripts[b]
	if !ok {
		t.Fatalf("no bash fixture for behaviour %q", b)
	}
	return writeScript(t, dir, string(b)+".sh", body)
}

// writeScript writes a bash script into dir and returns its name.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/usr/bin/env bash\n"+body), 0o644); err != nil {
		t.Fatalf("writing fixture %s: %v", name, err)
	}
	return name
}
