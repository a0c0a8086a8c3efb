package wasm_test

import (
	"context"
	"errors"
	"os"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/wasm/internal/engine"
)

// exit42Module is a hand-assembled WASI command that exits with code 42:
//
//	(module
//	  (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
//	  (func (export "_start") i32.const 42 call 0))
var exit42Module = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
	0x01, 0x08, 0x02, 0x60, 0x01, 0x7f, 0x00, 0x60, 0x00, 0x00, // types: (i32)->(), ()->()
	0x02, 0x24, 0x01, 0x16, // imports: one, module name of 22 bytes
	'w', 'a', 's', 'i', '_', 's', 'n', 'a', 'p', 's', 'h', 'o', 't', '_', 'p', 'r', 'e', 'v', 'i', 'e', 'w', '1',
	0x09, 'p', 'r', 'o', 'c', '_', 'e', 'x', 'i', 't', 0x00, 0x00, // "proc_exit", func of type 0
	0x03, 0x02, 0x01, 0x01, // functions: one of type 1
	0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x01, // export "_start" = func 1
	0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x2a, 0x10, 0x00, 0x0b, // code: i32.const 42, call 0
}

// libraryModule is a valid module with no _start: (module).
var libraryModule = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}

func TestRunRefusesWhatCannotStart(t *testing.T) {
	r := newRunner(t)
	tests := []struct {
		name     string
		content  []byte // written over the script; nil keeps the guest
		edit     func(*core.RunRequest)
		wantIs   error
		wantText string
	}{
		{"not wasm", []byte("#!/bin/sh\necho hi\n"), nil, nil, "scripts/probe.wasm"},
		{"empty file", []byte{}, nil, nil, "scripts/probe.wasm"},
		{"no _start export", libraryModule, nil, nil, "_start"},
		{"missing file", nil, func(req *core.RunRequest) { req.ScriptPath += ".gone" }, os.ErrNotExist, "scripts/probe.wasm"},
		{"invalid arg name", nil, func(req *core.RunRequest) { req.Args["bad.name"] = "x" }, core.ErrInvalidArgument, "bad.name"},
		{"relative script path", nil, func(req *core.RunRequest) { req.ScriptPath = "scripts/probe.wasm" }, core.ErrInvalidArgument, "not absolute"},
		{"relative skill dir", nil, func(req *core.RunRequest) { req.SkillDir = "skill" }, core.ErrInvalidArgument, "not absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := probeSkill(t, "exit", map[string]string{"code": "0"})
			if tt.content != nil {
				if err := os.WriteFile(req.ScriptPath, tt.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.edit != nil {
				tt.edit(&req)
			}

			_, err := r.Run(context.Background(), req)

			if err == nil {
				t.Fatalf("Run: got no error, want one")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("Run error %q: want it to wrap %v", err, tt.wantIs)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("Run error %q: want it to mention %q", err, tt.wantText)
			}
		})
	}
}

func TestGuestSeesOnlyItsEnv(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "secret-token")
	t.Setenv("HOME", "/home/secret")
	r := newRunner(t)
	req := skillWith(t, "print-env.wasm")
	req.Args = map[string]string{"name": "value", "Other_2": "two words"}

	res := run(t, r, req)

	got := strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")
	sort.Strings(got)
	want := []string{"SKILL_ARG_NAME=value", "SKILL_ARG_OTHER_2=two words", "SKILL_DIR=/skill"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("guest environment:\ngot  %q\nwant %q", got, want)
	}
}

func TestTrapIsAResult(t *testing.T) {
	// (module (func (export "_start") unreachable))
	trap := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // types: ()->()
		0x03, 0x02, 0x01, 0x00, // functions: one of type 0
		0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00, // export "_start" = func 0
		0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b, // code: unreachable
	}
	r := newRunner(t)
	req := probeSkill(t, "exit", nil)
	if err := os.WriteFile(req.ScriptPath, trap, 0o644); err != nil {
		t.Fatal(err)
	}

	res := run(t, r, req)

	if res.ExitCode != engine.TrapExitCode {
		t.Errorf("exit code = %d, want %d", res.ExitCode, engine.TrapExitCode)
	}
	if !strings.HasPrefix(res.Stderr, "[skills-mcp] wasm module trapped: ") || !strings.Contains(res.Stderr, "unreachable") {
		t.Errorf("stderr = %q, want the trap on its own line", res.Stderr)
	}
}

// TestCancelStopsGuest cancels the request while the guest sleeps. In a
// synctest bubble the fake clock moves only once the guest is blocked in its
// sleep, so the cancellation always lands after "started".
func TestCancelStopsGuest(t *testing.T) {
	r := newRunner(t)
	req := skillWith(t, "sleep.wasm")
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			time.Sleep(time.Second)
			cancel()
		}()

		res, err := r.Run(ctx, req)

		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run error = %v, want one wrapping context.Canceled", err)
		}
		if res.TimedOut || res.ExitCode != core.TimeoutExitCode {
			t.Errorf("TimedOut %v exit code %d, want false and %d", res.TimedOut, res.ExitCode, core.TimeoutExitCode)
		}
		if res.Stdout != "started\n" {
			t.Errorf("stdout = %q, want the partial output %q", res.Stdout, "started\n")
		}
		if res.Duration >= 10*time.Second {
			t.Errorf("duration on the bubble's clock = %v, want about 1 s, far below the guest's 30 s sleep", res.Duration)
		}
	})
}
