package skillscmd

import (
	"strings"
	"testing"
)

// A short SKILLS_HTTP_TOKEN is refused at start with a clear error, and the
// error itself is not mangled by the redaction of that token.
func TestShortHTTPTokenRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	for _, token := range []string{"t", "skills", "fifteen-chars-x"} {
		_, errOut, code := runBin(t, []string{"SKILLS_HTTP_TOKEN=" + token}, "serve", "--http", "127.0.0.1:0", "--skills-dir", dir)
		if code != exitUsage {
			t.Errorf("token %q: exit %d, want %d\n%s", token, code, exitUsage, errOut)
		}
		if !strings.Contains(errOut, "SKILLS_HTTP_TOKEN is ") || !strings.Contains(errOut, "at least 16") || !strings.Contains(errOut, "openssl rand -hex 32") {
			t.Errorf("token %q: stderr does not say the token is too short and how to make one:\n%s", token, errOut)
		}
	}
}

// A short GITHUB_TOKEN does not mangle the log: it is masked only where it
// stands as a word.
func TestShortGitHubTokenLeavesLogReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"skills/wrong/SKILL.md": agentSkill("not-wrong", "Name differs from its folder.", "# wrong\n")})
	for _, token := range []string{"t", "skills"} {
		_, errOut, _ := runBin(t, []string{"GITHUB_TOKEN=" + token}, "list", "--skills-dir", dir)
		if !strings.Contains(errOut, "skills-mcp.index: skills/wrong/SKILL.md") || strings.Contains(errOut, "***-mcp") {
			t.Errorf("token %q: log mangled:\n%s", token, errOut)
		}
	}
}
