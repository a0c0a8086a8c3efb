package engine

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/tetratelabs/wazero/sys"
)

func TestOOMWatcher(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   bool
	}{
		{"go runtime", []string{"fatal error: out of memory\n\ngoroutine 1 [running]:\n"}, true},
		{"rust", []string{"memory allocation of 67108864 bytes failed\n"}, true},
		{"split across writes", []string{"fatal error: out of me", "mory\n"}, true},
		{"split byte by byte", strings.Split("runtime: out of memory", ""), true},
		{"after a long output", []string{strings.Repeat("y", 100000), "out of memory"}, true},
		{"ordinary error", []string{"error: open /etc/passwd: Bad file number\n"}, false},
		{"nothing", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink strings.Builder
			w := &oomWatcher{w: &sink}

			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v, want %d, nil", n, err, len(s))
				}
			}

			if got := w.sawOOM(); got != tt.want {
				t.Errorf("sawOOM() = %v, want %v", got, tt.want)
			}
			if got, want := sink.String(), strings.Join(tt.writes, ""); got != want {
				t.Errorf("passed through %d bytes, want %d unchanged", len(got), len(want))
			}
		})
	}
}

func TestClassifyMemoryExceeded(t *testing.T) {
	e := &Engine{limitPages: 16 * 16, log: hclog.NewNullLogger()}
	const note = "[skills-mcp] wasm module exceeded the memory limit (16 MiB)"
	tests := []struct {
		name    string
		callErr error
		sawOOM  bool
		want    ModuleExit
	}{
		{"oom message and exit 2", sys.NewExitError(2), true, ModuleExit{ExitCode: 2, MemoryExceeded: true, Notes: []string{note}}},
		{"oom message and a trap", errors.New("wasm error: unreachable\nstack"), true, ModuleExit{ExitCode: TrapExitCode, MemoryExceeded: true,
			Notes: []string{"[skills-mcp] wasm module trapped: wasm error: unreachable", note}}},
		{"oom message but exit 0", nil, true, ModuleExit{}},
		{"exit 2 without the message", sys.NewExitError(2), false, ModuleExit{ExitCode: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.classify("m.wasm", tt.callErr, tt.sawOOM)

			if err != nil {
				t.Fatalf("classify: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
