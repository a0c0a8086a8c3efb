// Package testproc holds the process checks that tests of several packages
// need (helpers that must be gone). Only tests import it.
package testproc

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Alive reports whether process pid runs: it exists and is not a zombie
// (dead, waiting for its parent to reap it). Linux only: it reads /proc.
func Alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	end := bytes.LastIndexByte(data, ')') // comm may hold spaces and parentheses
	if end < 0 || end+2 >= len(data) {
		return false
	}
	state := data[end+2]
	return state != 'Z' && state != 'X'
}

// NeedProc skips t where processes cannot be seen through /proc.
func NeedProc(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
}

// WaitGone waits, polling, until process pid no longer runs, and fails t if
// it still runs after within.
func WaitGone(t testing.TB, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for Alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("process %d still runs after %v", pid, within)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ReadPID waits, polling, for file to hold a process id, and returns it;
// it fails t after within.
func ReadPID(t testing.TB, file string, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if data, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no process id in %s after %v", file, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill ends process pid with SIGKILL if it still runs, for cleanups.
func Kill(pid int) {
	if !Alive(pid) {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
