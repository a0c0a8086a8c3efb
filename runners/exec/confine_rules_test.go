//go:build linux

package exec_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// denied is what each language's script prints (or its interpreter says)
// when the kernel refuses a file or a connection.
var denied = map[string]string{"bash": "Permission denied", "python3": "EACCES", "node": "EACCES"}

// TestConfinedScriptsAreRefused: the rules of issue 28, each tried by a real
// bash, Python 3 and Node script run confined (launch.Confinement) by the
// exec runner, as a malicious skill would: each is refused, and the result
// says what the script saw. Where cheap, the same script run unconfined
// succeeds, so each row proves the confinement and not a broken fixture.
func TestConfinedScriptsAreRefused(t *testing.T) {
	t.Parallel()
	conf := confinement(t, launch.ConfineOptions{MemoryMB: 256})

	// The server user's secrets: a home with an SSH key (a temporary one,
	// standing for the real home, which a confined run never sees either).
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	environ := "/proc/" + strconv.Itoa(os.Getpid()) + "/environ" // the server's (this test process's)
	outside := t.TempDir()                                       // neither the scratch nor a write root

	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	// A pathname unix socket the script's user may write, standing for a
	// container runtime's or a system bus's: Landlock before ABI 9 does not
	// mediate connecting to it.
	sock := filepath.Join(t.TempDir(), "daemon.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uln.Close() })
	go func() {
		for {
			c, err := uln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	for _, lang := range languages {
		for _, tc := range []struct {
			rule    string
			attempt attempt
			args    map[string]string
			timeout time.Duration
			// want is what the confined result holds (stdout and stderr);
			// "" means denied[lang].
			want map[string]string
			// control runs the script unconfined too and wants "OK".
			control bool
		}{
			{rule: "read ~/.ssh/id_ed25519", attempt: readFile, args: map[string]string{"target": key}, control: true},
			{rule: "read /proc/<server pid>/environ", attempt: readFile, args: map[string]string{"target": environ}, control: true},
			{rule: "write outside the scratch dir and the write roots", attempt: writeFile,
				args: map[string]string{"target": filepath.Join(outside, "planted-"+lang.name)}, control: true},
			{rule: "connect to a local port", attempt: connectTCP, args: map[string]string{"port": port}, control: true},
			{rule: "connect to a unix socket", attempt: connectUnix, args: map[string]string{"target": sock}, control: true},
			{rule: "fork more than the limit", attempt: forkMany, timeout: 10 * time.Second,
				want: map[string]string{"bash": "Resource temporarily unavailable", "python3": "EAGAIN after", "node": "EAGAIN after"}},
			{rule: "allocate past the memory limit", attempt: allocateMany,
				want: map[string]string{"bash": "cannot allocate", "python3": "MemoryError", "node": "Array buffer allocation failed"}},
		} {
			if lang.scripts[tc.attempt] == "" {
				continue // bash has no unix sockets of its own
			}
			t.Run(lang.name+"/"+tc.rule, func(t *testing.T) {
				t.Parallel()
				want := denied[lang.name]
				if w, ok := tc.want[lang.name]; ok {
					want = w
				}
				req := skillRequest(t, lang, tc.attempt, "", tc.args)
				req.Timeout = tc.timeout
				res := runWithin(t, langRunner(t, lang, conf), req)
				got := res.Stdout + res.Stderr
				if strings.HasPrefix(res.Stdout, "OK") || !strings.Contains(got, want) {
					t.Errorf("confined %s: exit %d, output %q; want it refused, the output holding %q", tc.rule, res.ExitCode, got, want)
				} else {
					t.Logf("confined: %s", firstLine(got))
				}
				if !tc.control {
					return
				}
				res = runWithin(t, langRunner(t, lang, nil), skillRequest(t, lang, tc.attempt, "", tc.args))
				if !strings.HasPrefix(res.Stdout, "OK") {
					t.Errorf("unconfined %s: output %q, want OK (the fixture must work when nothing confines it)", tc.rule, res.Stdout+res.Stderr)
				}
			})
		}
	}
}

// TestConfinedScriptsDoTheirWork: the same languages' legitimate work runs
// confined: reading the skill's files, writing to $TMPDIR and $HOME (both
// in the run's scratch directory) and to the cwd (standing for one under a
// write root), importing the standard library and printing JSON.
func TestConfinedScriptsDoTheirWork(t *testing.T) {
	t.Parallel()
	conf := confinement(t, launch.ConfineOptions{})
	for _, lang := range languages {
		t.Run(lang.name, func(t *testing.T) {
			t.Parallel()
			cwd := t.TempDir()
			req := skillRequest(t, lang, legitWork, cwd, nil)
			res := runWithin(t, langRunner(t, lang, conf), req)
			var got map[string]any
			if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil || res.ExitCode != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q: want JSON (%v)", res.ExitCode, res.Stdout, res.Stderr, err)
			}
			for key, want := range map[string]string{"skill": "from-the-skill", "tmp": "scratch", "home": "home"} {
				if got[key] != want {
					t.Errorf("%s = %v, want %q (all: %v)", key, got[key], want, got)
				}
			}
			if data, err := os.ReadFile(filepath.Join(cwd, "out.txt")); err != nil || string(data) != "cwd\n" && string(data) != "cwd" {
				t.Errorf("cwd/out.txt = %q, %v; want the script's file", data, err)
			}
		})
	}
}

// runWithin runs req with a generous safety deadline; an error fails the test.
func runWithin(t *testing.T, r interface {
	Run(context.Context, core.RunRequest) (core.RunResult, error)
}, req core.RunRequest) core.RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, req)
	if err != nil {
		t.Fatalf("Run(%s): %v", req.File, err)
	}
	return res
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// TestConfinedCwdSwappedForASymlinkIsRefused: the cwd a run was given under a
// write root is entered and granted through a handle opened without
// following symlinks, so a directory swapped for a symlink since it was
// checked (a script of another run could do it inside a write root) is
// refused, never followed to what it points at; nothing runs.
func TestConfinedCwdSwappedForASymlinkIsRefused(t *testing.T) {
	t.Parallel()
	conf := confinement(t, launch.ConfineOptions{})
	root := t.TempDir()
	secret := t.TempDir() // stands for ~/.ssh
	if err := os.Symlink(secret, filepath.Join(root, "work")); err != nil {
		t.Fatal(err)
	}
	lang := languages[0] // bash
	req := skillRequest(t, lang, writeFile, filepath.Join(root, "work"), map[string]string{"target": "planted"})
	_, err := langRunner(t, lang, conf).Run(t.Context(), req)
	if err == nil || !strings.Contains(err.Error(), "working directory") {
		t.Errorf("Run = %v; want a refusal naming the working directory", err)
	}
	if _, err := os.Stat(filepath.Join(secret, "planted")); err == nil {
		t.Error("the script wrote through the symlink")
	}
}
