package skillscmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settingsTree writes a skills directory with one skill and body as its
// config.yaml, and returns it.
func settingsTree(t *testing.T, configYAML string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml": configYAML,
		"a.md":        "---\ndescription: A skill\nkeywords: [alpha]\n---\n# A\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSettingsLayersUpToFlags: scripts.sandbox set at each layer the
// operator has (the settings file, the environment, the flag), the highest
// wins: each layer's value is a wrong one of its own, and the refusal names
// the one that won. The content's value is ignored with a warning.
func TestSettingsLayersUpToFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		content, file    string // scripts.sandbox in each, "" for none
		env, flag        string
		want, wantAbsent string // in stderr
	}{
		{name: "content only: ignored, naming the operator's settings", content: "none",
			want: "scripts.sandbox: ignored: the operator sets this", wantAbsent: "unconfined"},
		{name: "file over content", content: "confined", file: "none", want: "native scripts run unconfined"},
		{name: "environment over file", file: "none", env: "env-value", want: `"env-value"`},
		{name: "flag over environment", file: "none", env: "env-value", flag: "flag-value", want: `"flag-value"`, wantAbsent: "env-value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			content := ""
			if tt.content != "" {
				content = "scripts:\n  sandbox: " + tt.content + "\n"
			}
			env := map[string]string{"SKILLS_DIR": settingsTree(t, content), "SKILLS_STATE_DIR": t.TempDir(), "SKILLS_LOG_LEVEL": "info"}
			if tt.file != "" {
				p := filepath.Join(t.TempDir(), "settings.yaml")
				if err := os.WriteFile(p, []byte("scripts:\n  sandbox: "+tt.file+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				env["SKILLS_CONFIG"] = p
			}
			if tt.env != "" {
				env["SKILLS_SCRIPTS_SANDBOX"] = tt.env
			}
			args := []string{"run", "a", "scripts/none.sh"}
			if tt.flag != "" {
				args = append(args, "--scripts-sandbox", tt.flag)
			}
			_, stderr, _ := runCLI(t, env, args...)
			if !strings.Contains(stderr, tt.want) || tt.wantAbsent != "" && strings.Contains(stderr, tt.wantAbsent) {
				t.Errorf("stderr:\n%s\nwant %q (and not %q)", stderr, tt.want, tt.wantAbsent)
			}
		})
	}
}

// TestOperatorSettingsFileRefusedAtStart: SKILLS_CONFIG naming a missing or
// unreadable file, or one inside the skills directory, stops the start
// (exit 2) with a message naming it.
func TestOperatorSettingsFileRefusedAtStart(t *testing.T) {
	t.Parallel()
	skills := settingsTree(t, "")
	inside := filepath.Join(skills, "operator.yaml")
	if err := os.WriteFile(inside, []byte("scripts:\n  sandbox: none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, want string }{
		{"missing", filepath.Join(t.TempDir(), "nope.yaml"), "cannot be read"},
		{"a directory", t.TempDir(), "not a regular file"},
		{"inside the skills directory", inside, "lies inside the content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := runCLI(t, map[string]string{"SKILLS_DIR": skills, "SKILLS_CONFIG": tt.path}, "list")
			if code != exitUsage || !strings.Contains(stderr, "SKILLS_CONFIG="+tt.path) || !strings.Contains(stderr, tt.want) {
				t.Errorf("list: exit %d, stderr %q; want 2 naming SKILLS_CONFIG=%s and %q", code, stderr, tt.path, tt.want)
			}
		})
	}
}
