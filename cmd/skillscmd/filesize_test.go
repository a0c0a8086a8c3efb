package skillscmd

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOversizedSkillFilesAreSkipped runs the built binary on a tree holding
// a SKILL.md and a tree skill over index.max_skill_file_bytes beside small
// skills (issue 16, item 13: a 100 MB SKILL.md and a 50 MB tree skill were
// served whole): the large ones are skipped with a warning naming each file,
// the rest is listed.
func TestOversizedSkillFilesAreSkipped(t *testing.T) {
	t.Parallel()
	big := func(name string, size int) string {
		head := "---\nname: " + name + "\ndescription: A skill far larger than any agent should load at once.\nkeywords: [big]\n---\n# Big\n"
		return head + strings.Repeat("Lorem ipsum dolor sit amet.\n", size/28+1)
	}
	tests := []struct {
		name   string
		config string
		size   int // of each large file
	}{
		{"default limit", "", 3 << 20},
		{"configured limit", "index:\n  max_skill_file_bytes: 4096\n", 8192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"huge/SKILL.md":  big("huge", tt.size),
				"guides/big.md":  big("big", tt.size),
				"small/SKILL.md": "---\nname: small\ndescription: A small skill that is served.\n---\n# Small\n",
				"api.md":         "---\nname: api\ndescription: The API conventions, served.\nkeywords: [api]\n---\n# API\n",
			}
			if tt.config != "" {
				files["config.yaml"] = tt.config
			}
			writeTree(t, dir, files)
			cmd := exec.Command(binPath, "list", "--skills-dir", dir)
			cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("list: %v\nstdout %s\nstderr %s", err, stdout.String(), stderr.String())
			}
			for _, want := range []string{"small", "api"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("got listing %q, want it to hold %q", stdout.String(), want)
				}
			}
			for _, skipped := range []string{"huge", "guides/big"} {
				if strings.Contains(stdout.String(), skipped) {
					t.Errorf("got listing %q, want %q skipped", stdout.String(), skipped)
				}
			}
			for _, file := range []string{"huge/SKILL.md", "guides/big.md"} {
				if !strings.Contains(stderr.String(), "skipping "+file) || !strings.Contains(stderr.String(), "max_skill_file_bytes") {
					t.Errorf("got stderr %q, want a warning skipping %s over max_skill_file_bytes", stderr.String(), file)
				}
			}
		})
	}
}
