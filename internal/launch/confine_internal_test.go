package launch

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrefixOf: a runner's installation is the prefix of its bin directory,
// never the home directory nor "/" (then the program's own directory, or
// nothing when that is the home itself).
func TestPrefixOf(t *testing.T) {
	t.Parallel()
	const home = "/home/u"
	for _, tc := range []struct{ path, want string }{
		{"/usr/bin/node", "/usr"},
		{"/home/u/.pyenv/versions/3.11.7/bin/python3.11", "/home/u/.pyenv/versions/3.11.7"},
		{"/home/u/.nvm/versions/node/v20.1.0/bin/node", "/home/u/.nvm/versions/node/v20.1.0"},
		{"/opt/venv/bin/python3", "/opt/venv"},
		{"/home/u/bin/tool", "/home/u/bin"}, // the prefix would be the home
		{"/home/u/tool", ""},                // the program's directory is the home
		{"/bin/bash", "/bin"},               // the prefix would be "/"
		{"/opt/tools/run", "/opt/tools"},
	} {
		if got := prefixOf(tc.path, home); got != tc.want {
			t.Errorf("prefixOf(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestShimIsResolvedToTheInterpreter: a version manager's shim (a script in
// ROOT/shims whose manager answers `which`) is replaced by the interpreter
// the manager names, and only that interpreter's prefix is granted, not the
// manager's whole root; a manager that fails leaves an error naming the
// shim, never the shim unconfined.
func TestShimIsResolvedToTheInterpreter(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	interp := filepath.Join(root, "versions", "9.9", "bin", "python9")
	for path, body := range map[string]string{
		interp:                                  "#!/bin/sh\necho python9\n",
		filepath.Join(root, "shims", "python9"): "#!/usr/bin/env bash\nexec manager exec python9 \"$@\"\n",
		filepath.Join(root, "libexec", "pyenv"): "#!/bin/sh\n[ \"$1\" = which ] && [ \"$2\" = python9 ] && [ \"$PYENV_ROOT\" = " + root + " ] && echo " + interp + "\n",
		filepath.Join(root, "shims", "broken"):  "#!/usr/bin/env bash\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in := resolveInstallation(filepath.Join(root, "shims", "python9"))
	if in.Err != nil || in.Program != interp || len(in.Dirs) != 1 || in.Dirs[0] != filepath.Join(root, "versions", "9.9") {
		t.Errorf("installation = %+v, want the interpreter %s and its prefix only", in, interp)
	}
	broken := resolveInstallation(filepath.Join(root, "shims", "broken"))
	if broken.Err == nil || !strings.Contains(broken.Err.Error(), "shim") {
		t.Errorf("broken shim: %+v, want an error naming the shim", broken)
	}
}

// FuzzReadPolicy: whatever arrives on the launcher's policy descriptor, the
// launcher either gets a policy with a program and both bounds, or an error;
// it never panics.
func FuzzReadPolicy(f *testing.F) {
	good, _ := json.Marshal(launchPolicy{Program: "/bin/true", Argv: []string{"true"}, ReadOnly: []string{"/usr"}, DataBytes: 1 << 20, Processes: 8})
	probe, _ := json.Marshal(launchPolicy{Probe: true, DataBytes: 1, Processes: 1})
	for _, seed := range [][]byte{good, probe, []byte("{}"), []byte(`{"program":"/x","argv":[]}`), []byte("null"), []byte("[")} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := readPolicy(bytes.NewReader(data))
		if err != nil {
			return
		}
		if p.DataBytes == 0 || p.Processes == 0 || !p.Probe && (p.Program == "" || len(p.Argv) == 0) {
			t.Fatalf("readPolicy(%q) = %+v without an error", data, p)
		}
	})
}
