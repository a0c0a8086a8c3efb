package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// realHelperEnv gives the test the real git binary on PATH and a fresh HOME
// whose global configuration is gitconfig, for the rest of the test.
func realHelperEnv(t *testing.T, gitconfig string) (home string) {
	t.Helper()
	if gitBinary == "" {
		testenv.RequireTool(t, "git") // the PATH of TestMain has none: skips naming git (fails in CI)
	}
	home = t.TempDir()
	cfg := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(cfg, []byte(gitconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(gitBinary))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	return home
}

// writeHelperScript writes an executable credential helper that appends its
// action and input to log and answers get with user:password. It uses shell
// built-ins only: the PATH of the test holds git alone.
func writeHelperScript(t *testing.T, dir, log, user, password string) string {
	t.Helper()
	script := "#!/bin/sh\n" +
		"echo \"action=$1\" >>'" + log + "'\n" +
		"while IFS= read -r line && [ -n \"$line\" ]; do echo \"$line\" >>'" + log + "'; done\n" +
		"if [ \"$1\" = get ]; then echo username=" + user + "; echo password=" + password + "; fi\n"
	p := filepath.Join(dir, "helper.sh")
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRealGitCredentialHelper runs the fallback through the real git binary
// and a credential helper configured in ~/.gitconfig, as on a user's machine.
func TestRealGitCredentialHelper(t *testing.T) {
	tests := []struct {
		name string
		// helperPass is what the configured helper answers; "" configures no helper.
		helperPass string
		// askpass, when set, is installed as GIT_ASKPASS and SSH_ASKPASS, and
		// must never be run.
		askpass bool
		// wantActions are the helper actions git runs (get, store, erase).
		wantActions []string
		wantErr     string
	}{
		{name: "right credentials are stored", helperPass: helperPassword, wantActions: []string{"get", "store"}},
		{
			name: "wrong credentials are erased", helperPass: "hlp_WrongPassword_000000",
			wantActions: []string{"get", "erase"},
			wantErr:     "the remote refused the credentials of the git credential helper",
		},
		{
			name: "no helper and an askpass program: nobody is asked", askpass: true,
			wantErr: "the git credential helper has none for 127.0.0.1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			g := newGitHTTP(t, f.remote, "me", helperPassword)
			scripts := t.TempDir()
			log := filepath.Join(scripts, "helper.log")
			gitconfig := ""
			if tt.helperPass != "" {
				gitconfig = "[credential]\n\thelper = " + writeHelperScript(t, scripts, log, "me", tt.helperPass) + "\n"
			}
			realHelperEnv(t, gitconfig)
			if tt.askpass {
				askpass := filepath.Join(scripts, "askpass.sh")
				script := "#!/bin/sh\necho asked >>'" + log + "'\necho " + helperPassword + "\n"
				if err := os.WriteFile(askpass, []byte(script), 0o700); err != nil {
					t.Fatal(err)
				}
				t.Setenv("GIT_ASKPASS", askpass)
				t.Setenv("SSH_ASKPASS", askpass)
			}
			opts := f.options()
			opts.URL = g.repoURL()
			s := f.syncer(opts)

			res, err := s.Initialize(t.Context())
			if tt.wantErr == "" {
				if err != nil || !res.Success || res.CommitHash != f.head().String() {
					t.Fatalf("Initialize: got %+v, %v; want success at %s", res, err, f.head())
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, transport.ErrAuthenticationRequired) {
					t.Fatalf("Initialize: got %v, want ErrAuthenticationRequired containing %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), g.repoURL()) {
					t.Errorf("Initialize error does not name the repository %s: %v", g.repoURL(), err)
				}
				assertNoHelperPassword(t, f, err.Error())
			}
			assertNoHelperPassword(t, f)

			data, err := os.ReadFile(log)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			var actions []string
			for line := range strings.SplitSeq(string(data), "\n") {
				if a, ok := strings.CutPrefix(line, "action="); ok {
					actions = append(actions, a)
				}
				if line == "asked" {
					t.Errorf("an askpass program was run")
				}
			}
			if strings.Join(actions, ",") != strings.Join(tt.wantActions, ",") {
				t.Errorf("helper actions: got %q, want %q", actions, tt.wantActions)
			}
			host := "host=" + strings.TrimPrefix(g.URL, "http://") + "\n"
			if len(actions) > 0 && !strings.Contains(string(data), "protocol=http\n"+host) {
				t.Errorf("helper input: got %q, want protocol=http and %s", data, host)
			}
		})
	}
}
