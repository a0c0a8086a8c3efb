//go:build unix && !freebsd

package engine

import "syscall"

// oDSync is the host flag for a guest's O_DSYNC.
const oDSync = syscall.O_DSYNC
