package skillscmd

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestSettingsCheckedAlike: every setting is checked the same way (issue
// 29): a value skills-mcp cannot use stops it with a usage error naming the
// variable, as a wrong SKILLS_MATCHER does, instead of a silent default.
func TestSettingsCheckedAlike(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	tests := []struct {
		name     string
		env      map[string]string
		wantCode int
		want     string
	}{
		{"log level verbose", map[string]string{"SKILLS_LOG_LEVEL": "verbose"}, exitUsage, `SKILLS_LOG_LEVEL="verbose" is not a log level: it is one of trace, debug, info, warn, error`},
		{"log level typo", map[string]string{"SKILLS_LOG_LEVEL": "debg"}, exitUsage, "did you mean debug?"},
		{"log level warning", map[string]string{"SKILLS_LOG_LEVEL": "WARNING"}, exitOK, ""},
		{"stateless yes", map[string]string{"SKILLS_HTTP_STATELESS": "yes"}, exitUsage, `SKILLS_HTTP_STATELESS="yes": want true or false`},
		{"matcher", map[string]string{"SKILLS_MATCHER": "nope"}, exitUsage, `matcher "nope": not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["SKILLS_DIR"] = dir
			_, errOut, code := runCLI(t, tt.env, "list")
			if code != tt.wantCode || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", code, tt.wantCode, tt.want, errOut)
			}
		})
	}
}

// TestMisspelledVariable: a variable of the project's prefix that skills-mcp
// does not read but that is close to one it does gets a warning naming that
// one, unless that one is set too.
func TestMisspelledVariable(t *testing.T) {
	t.Parallel()
	getenv := func(env map[string]string) func(string) string { return func(k string) string { return env[k] } }
	environ := []string{"SKILLS_TOOL=sk", "SKILL_DIR=/x", "SKILLS_MATHCER=ranked", "SKILLS_SOMETHING_ELSE=1", "PATH=/bin", "SKILLS_DIR=/y"}
	got := misspelledEnv(environ, getenv(map[string]string{"SKILLS_DIR": "/y"}))
	want := []string{
		"SKILLS_MATHCER is set, but skills-mcp reads no such variable: did you mean SKILLS_MATCHER?",
		"SKILLS_TOOL is set, but skills-mcp reads no such variable: did you mean SKILLS_TOOLS?",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q,\nwant %q (SKILL_DIR is quiet: SKILLS_DIR is set)", got, want)
	}
	if got := misspelledEnv([]string{"SKILL_DIR=/x"}, getenv(nil)); len(got) != 1 || !strings.Contains(got[0], "did you mean SKILLS_DIR?") {
		t.Errorf("SKILL_DIR alone: got %q", got)
	}

	// the binary reads its real environment
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	_, errOut, code := runBin(t, []string{"SKILLS_TOOL=sk", "SKILLS_DIR=" + dir}, "list")
	if code != 0 || strings.Count(errOut, "did you mean SKILLS_TOOLS?") != 1 {
		t.Errorf("exit %d, want one warning naming SKILLS_TOOLS:\n%s", code, errOut)
	}
}

// TestSkillsDirAsClientsPassIt: JSON client configs pass SKILLS_DIR without a
// shell: ~ is expanded; an empty directory is served with a warning, as
// validate refuses it.
func TestSkillsDirAsClientsPassIt(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeTree(t, home, map[string]string{"col/pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n"), "empty/.keep": ""})
	out, errOut, code := runCLI(t, map[string]string{"HOME": home, "SKILLS_DIR": "~/col"}, "list")
	if code != 0 || !strings.Contains(out, "[pdf]") {
		t.Errorf("SKILLS_DIR=~/col: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, map[string]string{"HOME": home, "SKILLS_DIR": "~/empty"}, "serve")
	if code != 0 || !strings.Contains(errOut, "[WARN]  skills-mcp: no skills found") || !strings.Contains(errOut, filepath.Join(home, "empty")) {
		t.Errorf("empty directory: exit %d, want a warning naming it:\n%s", code, errOut)
	}
}

// TestCommandLineMistakes: a mistyped flag before the command prints its
// error once with the command's own usage and the flag meant; a mistyped
// command gets the command meant, not the whole help; a command without
// flags has no empty Flags: heading; flags written before the command are
// the command's.
func TestCommandLineMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})

	_, errOut, code := runCLI(t, nil, "--skill-dir", dir, "list")
	if code != exitUsage || strings.Count(errOut, "flag provided but not defined: -skill-dir") != 1 ||
		!strings.Contains(errOut, "(did you mean --skills-dir?)") || !strings.Contains(errOut, "Usage: skills-mcp list") || strings.Contains(errOut, "Usage: skills-mcp serve") {
		t.Errorf("--skill-dir X list: exit %d\n%s", code, errOut)
	}
	out, errOut, code := runCLI(t, nil, "--skills-dir", dir, "list")
	if code != 0 || !strings.Contains(out, "[pdf]") {
		t.Errorf("--skills-dir X list: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, nil, "lsit")
	if code != exitUsage || !strings.Contains(errOut, `unknown command "lsit": did you mean list?`) || strings.Contains(out+errOut, "Commands:") {
		t.Errorf("lsit: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, nil, "search", "--explian", "x")
	if code != exitUsage || !strings.Contains(errOut, "did you mean --explain?") {
		t.Errorf("search --explian: exit %d\n%s", code, errOut)
	}
	out, errOut, code = runCLI(t, nil, "get", "--help")
	if code != 0 || !strings.Contains(errOut, "Flags:\n") {
		t.Errorf("get --help: exit %d\n%s%s", code, out, errOut)
	}
}

// TestShortTokenRefusalReadsCorrectly: whatever word the short token is, the
// refusal reads as written and the token itself is never printed.
func TestShortTokenRefusalReadsCorrectly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n")})
	want := "skills-mcp: SKILLS_HTTP_TOKEN is %d characters; a bearer token needs at least 16 (a short one is guessable): generate one with `openssl rand -hex 32`\n"
	for _, token := range []string{"short", "bearer", "token", "16"} {
		_, errOut, code := runCLI(t, map[string]string{"SKILLS_HTTP_TOKEN": token, "SKILLS_DIR": dir}, "serve", "--http", "127.0.0.1:0")
		if w := strings.Replace(want, "%d", strconv.Itoa(len(token)), 1); code != exitUsage || errOut != w {
			t.Errorf("token %q: exit %d, got\n%q\nwant\n%q", token, code, errOut, w)
		}
	}
}

// TestRunNamesUnknownArgument: a mistyped argument of `run` is named beside
// the required one it stands for (the starter's check-size.sh).
func TestRunNamesUnknownArgument(t *testing.T) {
	t.Parallel()
	repo := filepath.Join(t.TempDir(), "repo")
	if _, errOut, code := runCLI(t, nil, "init", repo); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	_, errOut, code := runCLI(t, map[string]string{"SKILLS_DIR": filepath.Join(repo, "skills")},
		"run", "guides/code-review", "scripts/check-size.sh", "--arg", "changed_line=120")
	if code == 0 || !strings.Contains(errOut, "missing required args: changed_lines") || !strings.Contains(errOut, `"changed_line" not declared`) {
		t.Errorf("exit %d, want the missing and the unknown argument named:\n%s", code, errOut)
	}
}

// TestValidateConfigAllAtOnce: validate reports every config.yaml problem at
// once, the warnings too while there is an error, each at its line.
func TestValidateConfigAllAtOnce(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"skills/pdf/SKILL.md": agentSkill("pdf", "Reads PDFs.", "# pdf\n"),
		"config.yaml":         "matching:\n  min_scor: 0.3\n  max_results: 0\n",
	})
	out, _, code := runCLI(t, nil, "validate", repo)
	for _, want := range []string{"config.yaml:2: warning: matching.min_scor: unknown key", "config.yaml:3: error: matching.max_results"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
}

// TestValidateFindsSkillsRootInRepository: validate with no argument in a
// repository's root checks the skills folder serve would serve, not the
// whole repository with its test data.
func TestValidateFindsSkillsRootInRepository(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"skills/pdf/SKILL.md":      agentSkill("pdf", "Reads PDFs.", "# pdf\n"),
		"template/SKILL.md":        agentSkill("template-skill", "A template.", "# t\n"), // breaks the folder-name rule
		"testdata/broken/SKILL.md": "---\nname: broken\n---\n",
	})
	cmd := exec.Command(binPath, "validate")
	cmd.Dir = repo
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil || !strings.Contains(out, "validate: checking skills, where serve looks") || !strings.Contains(out, "0 errors, 0 warnings") {
		t.Errorf("%v\n%s", err, out)
	}
}

// TestUsageWithoutFlags: a command without flags has no empty Flags: heading.
func TestUsageWithoutFlags(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	fs := newFlagSet("x", "x [DIR]", "Does x.", &b)
	fs.Usage()
	if got := b.String(); got != "Usage: skills-mcp x [DIR]\n\nDoes x.\n" {
		t.Errorf("got %q", got)
	}
	b.Reset()
	fs.Bool("json", false, "print JSON")
	fs.Usage()
	if got := b.String(); !strings.Contains(got, "\nFlags:\n  -json\n") {
		t.Errorf("got %q", got)
	}
}
