package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// groupAlive scans /proc for a member of process group pid that is not a
// zombie. A zombie is dead already; counting it would make the answer depend on
// how quickly init reaps orphans.
func groupAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return groupSignalable(pid)
	}
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // the process ended while we looked
		}
		state, pgrp, ok := parseProcStat(data)
		if ok && pgrp == pid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// parseProcStat reads the state and the process group id from the content of
// /proc/PID/stat: "pid (comm) state ppid pgrp ...". comm may hold spaces and
// parentheses, so fields are counted from the last ')'.
func parseProcStat(data []byte) (state byte, pgrp int, ok bool) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(data[end+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err := strconv.Atoi(string(fields[2]))
	if err != nil {
		return 0, 0, false
	}
	return fields[0][0], pgrp, true
}
