package skillscmd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// twoCollections writes two collections that both ship a pdf skill, at
// different paths, and one skill of their own each.
func twoCollections(t *testing.T) (a, b string) {
	t.Helper()
	a, b = t.TempDir(), t.TempDir()
	writeTree(t, a, map[string]string{
		"skills/pdf/SKILL.md":   agentSkill("pdf", "Reads PDF files (collection A).", "# A pdf\n"),
		"skills/alpha/SKILL.md": agentSkill("alpha", "Only in A.", "# alpha\n"),
	})
	writeTree(t, b, map[string]string{
		"document-skills/pdf/SKILL.md": agentSkill("pdf", "Reads PDF files (collection B).", "# B pdf\n"),
		"beta/SKILL.md":                agentSkill("beta", "Only in B.", "# beta\n"),
	})
	return a, b
}

// runBin runs the binary with a minimal environment plus env.
func runBin(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// --skills-dir repeated serves every directory, as A:B and SKILLS_DIR=A:B do,
// in every command that takes it.
func TestRepeatedSkillsDirCombines(t *testing.T) {
	t.Parallel()
	a, b := twoCollections(t)
	forms := map[string]struct {
		env  []string
		args []string
	}{
		"flag repeated":         {nil, []string{"--skills-dir", a, "--skills-dir", b}},
		"flag with a list":      {nil, []string{"--skills-dir", a + ":" + b}},
		"SKILLS_DIR list":       {[]string{"SKILLS_DIR=" + a + ":" + b}, nil},
		"flag replaces the env": {[]string{"SKILLS_DIR=" + t.TempDir()}, []string{"--skills-dir", a, "--skills-dir", b}},
	}
	for name, f := range forms {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runBin(t, f.env, append([]string{"list"}, f.args...)...)
			if code != 0 {
				t.Fatalf("list exit %d\n%s", code, errOut)
			}
			for _, want := range []string{"alpha", "beta", "skills/pdf", "document-skills/pdf"} {
				if !strings.Contains(out, want) {
					t.Errorf("list does not show %s:\n%s", want, out)
				}
			}
			out, errOut, code = runBin(t, f.env, append([]string{"get", "beta"}, f.args...)...)
			if code != 0 || !strings.Contains(out, "# beta") {
				t.Errorf("get beta: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// A name two collections own at different paths is ambiguous, as within one
// root: the skill tool lists both paths, and each path loads its skill.
func TestNameSharedAcrossRootsIsAmbiguous(t *testing.T) {
	t.Parallel()
	a, b := twoCollections(t)
	s := serveDir(t, a+string(filepath.ListSeparator)+b)
	text, isErr := s.call(t, "skill", map[string]any{"name": "pdf"})
	for _, want := range []string{"skills/pdf", "document-skills/pdf"} {
		if !strings.Contains(text, want) {
			t.Errorf("skill pdf (error %v) does not name %s:\n%s", isErr, want, text)
		}
	}
	if strings.Contains(text, "# A pdf") || strings.Contains(text, "# B pdf") {
		t.Errorf("skill pdf loaded one of two skills owning the name:\n%s", text)
	}
	text, isErr = s.call(t, "skill", map[string]any{"name": "document-skills/pdf"})
	if isErr || !strings.Contains(text, "# B pdf") {
		t.Errorf("skill by path: error %v\n%s", isErr, text)
	}
}

// validate takes several DIRs and the SKILLS_DIR list, checks them as serve
// serves them, and reports the collision between the collections; the
// command serve's start-up log names works as printed.
func TestValidateSeveralCollections(t *testing.T) {
	t.Parallel()
	a, b := twoCollections(t)
	check := func(t *testing.T, out string, code int) {
		t.Helper()
		if code != 1 {
			t.Errorf("exit %d, want 1 (a collision is an error)\n%s", code, out)
		}
		if !strings.Contains(out, "name collision") || !strings.Contains(out, filepath.Join(a, "skills", "pdf", "SKILL.md")) {
			t.Errorf("no collision between the collections naming both files:\n%s", out)
		}
	}
	t.Run("DIRs", func(t *testing.T) {
		out, errOut, code := runBin(t, nil, "validate", a, b)
		check(t, out+errOut, code)
	})
	t.Run("SKILLS_DIR", func(t *testing.T) {
		out, errOut, code := runBin(t, []string{"SKILLS_DIR=" + a + ":" + b}, "validate")
		check(t, out+errOut, code)
	})
	t.Run("the command serve names", func(t *testing.T) {
		c := t.TempDir() // a third pdf: more problems than serve logs in full, so it names validate
		writeTree(t, c, map[string]string{"pdf/SKILL.md": agentSkill("pdf", "Reads PDF files (collection C).", "# C pdf\n"),
			"other/SKILL.md": agentSkill("not-other", "Name differs from its folder.", "# other\n")})
		s := serveDir(t, a+":"+b+":"+c)
		s.toolDescription(t, "skill") // the index is built and its problems logged
		log := s.stderr.String()
		i := strings.Index(log, "`skills-mcp validate ")
		if i < 0 {
			t.Fatalf("serve names no validate command:\n%s", log)
		}
		cmdLine := log[i+1:]
		cmdLine = cmdLine[:strings.Index(cmdLine, "`")]
		args := strings.Fields(cmdLine)[1:]
		out, errOut, code := runBin(t, nil, args...)
		check(t, out+errOut, code)
	})
}

// A collection with a skills/ folder inside (and no config.yaml) is checked
// as serve serves it, whole: what serve's log counts, validate lists.
func TestValidateChecksWhatServeServes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"README.md":             "# A collection\n",
		"skills/good/SKILL.md":  agentSkill("good", "A good skill.", "# good\n"),
		"skills/wrong/SKILL.md": agentSkill("not-wrong", "Name differs from its folder.", "# wrong\n"),
	})
	out, errOut, code := runBin(t, nil, "validate", dir)
	if code != 1 || !strings.Contains(out, "skills/wrong/SKILL.md:2: error:") {
		t.Errorf("validate: exit %d, want the rule break of skills/wrong listed\n%s%s", code, out, errOut)
	}
	if strings.Contains(errOut, "the skills folder of the content repository") {
		t.Errorf("validate narrowed to skills/ although serve serves the whole directory:\n%s", errOut)
	}
}
