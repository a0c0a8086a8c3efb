//go:build linux

package skillscmd

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// protectSecrets keeps the secrets given to the server (GITHUB_TOKEN,
// SKILLS_HTTP_TOKEN, …) from the scripts it runs (issue 16, item 10):
//
//   - it blanks every value of the environment block the kernel shows in
//     /proc/<pid>/environ (Go keeps its own copy, read at start, so os.Getenv
//     is unchanged); this holds even when the script runs as root, which
//     may read any process's /proc files;
//   - it makes the process non-dumpable, so another process of the same
//     (non-root) user cannot open its /proc/<pid>/mem, environ or fds.
func protectSecrets() error {
	if err := blankEnvironBlock(); err != nil {
		return fmt.Errorf("blanking the environment block: %w", err)
	}
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// blankEnvironBlock overwrites the values in the process's original
// environment block (env_start..env_end of /proc/self/stat) with NULs,
// keeping the names, through /proc/self/mem.
func blankEnvironBlock() error {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return err
	}
	// Fields after the command name, which ends at the last ')': field 3 on.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	const envStart, envEnd = 50 - 3, 51 - 3
	if len(fields) <= envEnd {
		return fmt.Errorf("/proc/self/stat has %d fields, want env_start and env_end", len(fields)+2)
	}
	start, err1 := strconv.ParseInt(fields[envStart], 10, 64)
	end, err2 := strconv.ParseInt(fields[envEnd], 10, 64)
	if err1 != nil || err2 != nil || end < start {
		return fmt.Errorf("/proc/self/stat: bad env_start %q or env_end %q", fields[envStart], fields[envEnd])
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, start); err != nil {
		return err
	}
	blanked := blankValues(block)
	if bytes.Equal(blanked, block) {
		return nil
	}
	_, err = mem.WriteAt(blanked, start)
	return err
}

// blankValues returns block (NUL-separated NAME=VALUE entries) with every
// VALUE's bytes replaced by NULs, so the block keeps its length.
func blankValues(block []byte) []byte {
	out := bytes.Clone(block)
	inValue, atStart := false, true
	for i, c := range out {
		switch {
		case c == 0:
			inValue, atStart = false, true
		case inValue:
			out[i] = 0
		case c == '=' && !atStart:
			inValue = true
		default:
			atStart = false
		}
	}
	return out
}
