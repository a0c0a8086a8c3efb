package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

func killMarked(marker string) (int, error) {
	want := []byte(marker)
	self := os.Getpid()
	killed := 0
	// A marked process may fork while the scan runs: scan until a round finds
	// none (bounded, so a fork bomb cannot hold the caller forever).
	for range 10 {
		found := 0
		dirs, err := filepath.Glob("/proc/[0-9]*")
		if err != nil {
			return killed, err
		}
		for _, dir := range dirs {
			pid, err := strconv.Atoi(filepath.Base(dir))
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile(dir + "/environ")
			if err != nil || !hasEntry(env, want) {
				continue // gone, another user's, or not of this run
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				continue
			}
			found++
			if stat, err := os.ReadFile(dir + "/stat"); err == nil && parentOf(stat) == self {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, 0, nil) // ours (subreaper or PID 1): reap it
			}
		}
		killed += found
		if found == 0 {
			break
		}
	}
	return killed, nil
}

// hasEntry reports whether the NUL-separated environment env holds entry.
func hasEntry(env, entry []byte) bool {
	for e := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(e, entry) {
			return true
		}
	}
	return false
}

// parentOf reads the parent pid from the content of /proc/PID/stat.
func parentOf(stat []byte) int {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0
	}
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(string(fields[1]))
	return ppid
}
