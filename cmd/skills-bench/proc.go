package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// peakRSS reads VmHWM, the peak resident set size, of process pid in bytes.
func peakRSS(pid int) (int64, error) {
	return statusField(pid, "VmHWM")
}

// statusField reads a `kB` field of /proc/<pid>/status, in bytes.
func statusField(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("reading the status of process %d: %w", pid, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading %s of process %d: %w", field, pid, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("reading the status of process %d: no %s line", pid, field)
}

// cpuTime is the CPU time all threads of process pid have run so far, from
// /proc/<pid>/task/*/schedstat (nanoseconds, unlike the 10 ms ticks of
// /proc/<pid>/stat).
func cpuTime(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("reading the CPU time of process %d: no task", pid)
	}
	var total time.Duration
	for _, p := range tasks {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that just exited
		}
		first, _, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
		ns, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", p, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

// untilIdle waits until process pid has used under 1 ms of CPU in 100 ms
// (at most 10 s), so that the work a server does in the background after
// start-up (the rest of the index, the file watcher's walk) is not counted
// in the calls measured next, and returns the CPU time it had used by then.
func untilIdle(pid int) (time.Duration, error) {
	last, err := cpuTime(pid)
	if err != nil {
		return 0, err
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		now, err := cpuTime(pid)
		if err != nil {
			return 0, err
		}
		if now-last < time.Millisecond {
			return now, nil
		}
		last = now
	}
	return last, nil
}
