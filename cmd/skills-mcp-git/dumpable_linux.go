package main

import "golang.org/x/sys/unix"

// hideSecrets makes the process non-dumpable, as skills-mcp is: no core dump
// and no /proc/PID/mem for other processes of the same user.
func hideSecrets() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
