package launch

import (
	"bytes"
	"os"
	"strconv"
)

// startTime returns the start time of pid (field 22 of /proc/PID/stat, in
// clock ticks since boot) as text, or "" when the process is gone.
func startTime(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	return startTimeOf(stat)
}

// startTimeOf reads the start time from the content of /proc/PID/stat
// (fields counted from the last ')', as comm may hold spaces).
func startTimeOf(stat []byte) string {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return ""
	}
	fields := bytes.Fields(stat[end+1:])
	// fields[0] is field 3 (state); the start time is field 22.
	if len(fields) < 20 {
		return ""
	}
	return string(fields[19])
}
