package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigNeverWidensWhatScriptsReach is issue 28: the content's
// config.yaml may narrow what the operator grants scripts (deny the network,
// keep run_script off over HTTP) but never widen it: scripts.sandbox,
// scripts.network, scripts.allow_remote, wasm.mounts and wasm.cwd_roots are
// ignored with one warning each naming the operator's variable, whether the
// operator named the file or not.
func TestConfigNeverWidensWhatScriptsReach(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, yaml string
		warn       string // the variable the warning names; "" for none
		check      func(c Config) bool
	}{
		{"sandbox none", "scripts:\n  sandbox: none\n", "SKILLS_SCRIPTS_SANDBOX", func(c Config) bool { return c.Scripts.Sandbox == "confined" }},
		{"sandbox unknown", "scripts:\n  sandbox: [x]\n", "SKILLS_SCRIPTS_SANDBOX", func(c Config) bool { return c.Scripts.Sandbox == "confined" }},
		{"sandbox confined narrows nothing", "scripts:\n  sandbox: confined\n", "", func(c Config) bool { return c.Scripts.Sandbox == "confined" }},
		{"network allow", "scripts:\n  network: allow\n", "SKILLS_SCRIPTS_NETWORK", func(c Config) bool { return c.Scripts.Network == "deny" }},
		{"network deny narrows", "scripts:\n  network: deny\n", "", func(c Config) bool { return c.Scripts.Network == "deny" }},
		{"remote runs", "scripts:\n  allow_remote: true\n", "SKILLS_SCRIPTS_ALLOW_REMOTE", func(c Config) bool { return !c.Scripts.AllowRemote }},
		{"remote runs off narrows", "scripts:\n  allow_remote: false\n", "", func(c Config) bool { return !c.Scripts.AllowRemote }},
		{"wasm mounts", "wasm:\n  mounts:\n    /host: /\n    /etc: /etc\n", "SKILLS_WASM_MOUNTS", func(c Config) bool { return len(c.Wasm.Mounts) == 0 }},
		{"wasm cwd roots", "wasm:\n  cwd_roots: [/, /home]\n", "SKILLS_SCRIPTS_WRITE_ROOTS", func(c Config) bool { return len(c.Wasm.CwdRoots) == 0 }},
	} {
		for _, discovered := range []bool{false, true} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tc.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := LoadWith(dir, nil, LoadOptions{Discovered: discovered})
				if err != nil {
					t.Fatalf("LoadWith: %v", err)
				}
				if !tc.check(got.Config) {
					t.Errorf("config %+v %+v: the content widened what scripts reach", got.Config.Scripts, got.Config.Wasm)
				}
				var named []string
				for _, w := range got.Warnings {
					if strings.Contains(w, "in the server's environment instead") {
						named = append(named, w)
					}
				}
				switch {
				case tc.warn == "" && len(named) > 0:
					t.Errorf("warnings %q, want none", named)
				case tc.warn != "" && (len(named) != 1 || !strings.Contains(named[0], tc.warn)):
					t.Errorf("warnings %q, want exactly one naming %s", named, tc.warn)
				}
			})
		}
	}
}
