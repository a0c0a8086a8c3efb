package wasm_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

const (
	skillData  = "skill data"
	hostSecret = "host secret"
)

// escapeSetup makes a skill directory (with data.txt and symlinks in every
// flavour), a separate working directory, and a host directory outside both
// holding secret.txt. It returns a probe request running op in them.
func escapeSetup(t *testing.T, op string, args map[string]string) (req core.RunRequest, outside string) {
	t.Helper()
	req = probeSkill(t, op, args)
	req.Dir = t.TempDir()
	outside = t.TempDir()
	write(t, filepath.Join(outside, "secret.txt"), hostSecret)
	write(t, filepath.Join(req.SkillDir, "data.txt"), skillData)
	relToOutside, err := filepath.Rel(req.SkillDir, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"abs-link": filepath.Join(outside, "secret.txt"),
		"rel-link": relToOutside,
		"dir-link": outside,
		"in-link":  "data.txt",
	} {
		if err := os.Symlink(target, filepath.Join(req.SkillDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return req, outside
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGuestCannotReachTheHost(t *testing.T) {
	r := newRunner(t, tempWritable)
	tests := []struct {
		name string
		op   string
		args map[string]string
	}{
		{"read /etc/passwd", "read", map[string]string{"path": "/etc/passwd"}},
		{"read ../ above /skill", "read", map[string]string{"path": "/skill/../../../../etc/passwd"}},
		{"raw path_open ../ from /skill", "rawopen", map[string]string{"preopen": "/skill", "path": "../../../../../../etc/passwd"}},
		{"raw path_open ../ from /cwd", "rawopen", map[string]string{"preopen": "/cwd", "path": "../../../../../../etc/passwd"}},
		{"raw path_open ../ through a subdir", "rawopen", map[string]string{"preopen": "/skill", "path": "scripts/../../../../../../etc/passwd"}},
		{"absolute symlink to a host file", "read", map[string]string{"path": "/skill/abs-link"}},
		{"relative symlink to a host file", "read", map[string]string{"path": "/skill/rel-link"}},
		{"symlink to a host directory", "read", map[string]string{"path": "/skill/dir-link/secret.txt"}},
		{"raw path_open of an absolute symlink", "rawopen", map[string]string{"preopen": "/skill", "path": "abs-link"}},
		{"raw path_open of a relative symlink", "rawopen", map[string]string{"preopen": "/skill", "path": "rel-link"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := escapeSetup(t, tt.op, tt.args)

			res := run(t, r, req)

			if res.ExitCode == 0 {
				t.Errorf("exit code = 0, want the guest's error exit (stdout %q)", res.Stdout)
			}
			if !strings.HasPrefix(res.Stderr, "error:") {
				t.Errorf("stderr = %q, want the guest's error report", res.Stderr)
			}
			for _, leak := range []string{hostSecret, "root:"} {
				if strings.Contains(res.Stdout, leak) {
					t.Errorf("stdout holds %q, want nothing from the host: %q", leak, res.Stdout)
				}
			}
		})
	}
}

// TestMountsStillWork is the control for the escape tests: what is inside
// the mounts stays reachable, so the refusals above are confinement, not breakage.
func TestMountsStillWork(t *testing.T) {
	r := newRunner(t, tempWritable)
	tests := []struct {
		name string
		op   string
		args map[string]string
		want string
	}{
		{"read a skill file", "read", map[string]string{"path": "/skill/data.txt"}, skillData},
		{"read through a symlink inside the skill", "read", map[string]string{"path": "/skill/in-link"}, skillData},
		{"raw path_open inside the skill", "rawopen", map[string]string{"preopen": "/skill", "path": "scripts/../data.txt"}, skillData},
		{"working directory is /cwd", "pwd", nil, "/cwd\n"},
		{"write into /cwd", "write", map[string]string{"path": "/cwd/out.txt", "data": "made by the guest"}, "written\n"},
		{"relative write lands in /cwd", "write", map[string]string{"path": "rel.txt", "data": "relative"}, "written\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := escapeSetup(t, tt.op, tt.args)

			res := run(t, r, req)

			if res.ExitCode != 0 || res.Stdout != tt.want {
				t.Errorf("exit %d stdout %q stderr %q, want exit 0 and stdout %q", res.ExitCode, res.Stdout, res.Stderr, tt.want)
			}
		})
	}
	t.Run("written files are on the host", func(t *testing.T) {
		req, _ := escapeSetup(t, "write", map[string]string{"path": "/cwd/sub.txt", "data": "on the host"})

		run(t, r, req)

		got, err := os.ReadFile(filepath.Join(req.Dir, "sub.txt"))
		if err != nil || string(got) != "on the host" {
			t.Errorf("host file: got %q, %v, want %q", got, err, "on the host")
		}
	})
	t.Run("working directory is /skill without a separate dir", func(t *testing.T) {
		req := probeSkill(t, "pwd", nil)

		res := run(t, r, req)

		if res.Stdout != "/skill\n" {
			t.Errorf("stdout = %q, want %q", res.Stdout, "/skill\n")
		}
	})
}

func TestGuestCannotPlantSymlinks(t *testing.T) {
	r := newRunner(t, tempWritable)
	tests := []struct {
		name   string
		target string
		link   string // guest path
	}{
		{"relative target under /cwd", "../../etc", "/cwd/evil"},
		{"absolute target under /cwd", "/etc/passwd", "/cwd/evil"},
		{"link under /skill", "../../etc", "/skill/evil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := escapeSetup(t, "symlink", map[string]string{"target": tt.target, "path": tt.link})

			res := run(t, r, req)

			if res.ExitCode == 0 {
				t.Errorf("exit code = 0, want the guest's error exit (stdout %q)", res.Stdout)
			}
			for _, dir := range []string{req.Dir, req.SkillDir} {
				_, err := os.Lstat(filepath.Join(dir, "evil"))
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("host %s/evil: got Lstat error %v, want not-exist", dir, err)
				}
			}
		})
	}
}

func TestSkillMountIsReadOnly(t *testing.T) {
	r := newRunner(t, tempWritable)
	tests := []struct {
		name string
		path string // guest path
		file string // host file under the skill dir
	}{
		{"overwrite a skill file", "/skill/data.txt", "data.txt"},
		{"overwrite the script itself", "/skill/scripts/probe.wasm", "scripts/probe.wasm"},
		{"create a file", "/skill/new.txt", "new.txt"},
		{"write through a symlink inside the skill", "/skill/in-link", "data.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := escapeSetup(t, "write", map[string]string{"path": tt.path, "data": "tampered"})
			before, _ := os.ReadFile(filepath.Join(req.SkillDir, tt.file))

			res := run(t, r, req)

			if res.ExitCode == 0 {
				t.Errorf("exit code = 0, want the guest's error exit (stdout %q)", res.Stdout)
			}
			after, _ := os.ReadFile(filepath.Join(req.SkillDir, tt.file))
			if string(after) != string(before) {
				t.Errorf("host file %s changed: got %d bytes starting %q, want it unchanged", tt.file, len(after), head(string(after), 20))
			}
		})
	}
}

func TestExtraMountsAreReadOnly(t *testing.T) {
	data := t.TempDir()
	write(t, filepath.Join(data, "shared.txt"), "shared data")
	r := newRunner(t, wasm.WithMounts(map[string]string{"/data": data}), tempWritable)
	tests := []struct {
		name     string
		op       string
		args     map[string]string
		wantExit int
		want     string
	}{
		{"read", "read", map[string]string{"path": "/data/shared.txt"}, 0, "shared data"},
		{"write", "write", map[string]string{"path": "/data/shared.txt", "data": "tampered"}, 1, ""},
		{"create", "write", map[string]string{"path": "/data/new.txt", "data": "new"}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, r, probeSkill(t, tt.op, tt.args))

			if res.ExitCode != tt.wantExit || res.Stdout != tt.want {
				t.Errorf("exit %d stdout %q stderr %q, want exit %d stdout %q", res.ExitCode, res.Stdout, res.Stderr, tt.wantExit, tt.want)
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(data, "shared.txt")); string(got) != "shared data" {
		t.Errorf("host shared.txt = %q, want it unchanged", got)
	}
	if _, err := os.Stat(filepath.Join(data, "new.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("host new.txt: got stat error %v, want not-exist", err)
	}
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
