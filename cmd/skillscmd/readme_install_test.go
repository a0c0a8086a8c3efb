package skillscmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// The README installs skills-mcp only in ways that work for an unpublished
// module (a clone), and its custom-plugins build writes where .gitignore
// covers, so following it leaves no untracked binary.
func TestReadmeInstallAndBuildLines(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`go install github\.com/skills-mcp/skills-mcp/\S*@\S+`).Find(readme); m != nil {
		t.Errorf("README has %q: the module is not published, so go install MODULE@VERSION cannot work", m)
	}
	block := string(readme)
	i := strings.Index(block, "cd examples/custom-plugins\n")
	if i < 0 {
		t.Fatal("README has no custom-plugins build block")
	}
	m := regexp.MustCompile(`go build -o (\S+) \.`).FindStringSubmatch(block[i:])
	if m == nil {
		t.Fatal("README's custom-plugins block builds nothing")
	}
	testenv.RequireTool(t, "git")
	check := exec.Command("git", "check-ignore", "-q", filepath.Join("examples", "custom-plugins", m[1]))
	check.Dir = "../.."
	if err := check.Run(); err != nil {
		t.Errorf("README builds examples/custom-plugins/%s, which .gitignore does not cover: it is left untracked (%v)", m[1], err)
	}
}
