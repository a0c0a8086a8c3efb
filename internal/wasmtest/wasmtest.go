// Package wasmtest holds what tests of the .wasm runner share: a tiny WASI
// module that sleeps, assembled here so no toolchain is needed, and a count
// of the helper processes a process has started. Only tests import it.
package wasmtest

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// SleepModule is a WASI preview 1 command module that sleeps for d (one
// relative clock subscription to poll_oneoff) and exits 0. Its text form:
//
//	(module
//	  (type (func (param i32 i32 i32 i32) (result i32)))
//	  (type (func))
//	  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (type 0)))
//	  (memory (export "memory") 1)
//	  (func (export "_start") (type 1)
//	    (drop (call $poll (i32.const 0) (i32.const 64) (i32.const 1) (i32.const 128))))
//	  (data (i32.const 0) "…the subscription: clock 1 (monotonic), timeout d, relative…"))
func SleepModule(d time.Duration) []byte {
	sub := make([]byte, 48)                            // userdata 0, tag 0 (clock) at 8, the clock at 16
	binary.LittleEndian.PutUint32(sub[16:], 1)         // monotonic clock
	binary.LittleEndian.PutUint64(sub[24:], uint64(d)) // timeout in ns; precision 0, flags 0 (relative)
	types := vec([]byte{0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f}, []byte{0x60, 0, 0})
	imports := vec(cat(name("wasi_snapshot_preview1"), name("poll_oneoff"), []byte{0x00, 0}))
	funcs := vec([]byte{1})
	memory := vec([]byte{0x00, 1})
	exports := vec(cat(name("memory"), []byte{0x02, 0}), cat(name("_start"), []byte{0x00, 1}))
	body := []byte{0, // no locals
		0x41, 0x00, 0x41, 0xc0, 0x00, 0x41, 0x01, 0x41, 0x80, 0x01, // i32.const 0, 64, 1, 128
		0x10, 0x00, 0x1a, 0x0b} // call 0, drop, end
	code := vec(sized(body))
	data := vec(cat([]byte{0x00, 0x41, 0x00, 0x0b}, sized(sub)))
	return cat([]byte{0x00, 'a', 's', 'm', 1, 0, 0, 0},
		section(1, types), section(2, imports), section(3, funcs), section(5, memory),
		section(7, exports), section(10, code), section(11, data))
}

func uleb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func vec(items ...[]byte) []byte       { return cat(uleb(len(items)), cat(items...)) }
func sized(b []byte) []byte            { return cat(uleb(len(b)), b) }
func name(s string) []byte             { return sized([]byte(s)) }
func section(id byte, b []byte) []byte { return cat([]byte{id}, sized(b)) }

// Children counts the live (not zombie) processes whose parent is ppid and
// whose command name is name, from /proc; ok is false where /proc does not
// list processes.
func Children(ppid int, name string) (n int, ok bool) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return 0, false
	}
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		s := string(data)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 2 || fields[0] == "Z" || s[open+1:end] != name {
			continue
		}
		if parent, err := strconv.Atoi(fields[1]); err == nil && parent == ppid {
			n++
		}
	}
	return n, true
}
