package engine

import "syscall"

// oDSync is the host flag for a guest's O_DSYNC. Go's syscall package spells
// no O_DSYNC for FreeBSD, so the guest gets O_SYNC there: it syncs metadata
// too, which keeps every promise O_DSYNC makes.
const oDSync = syscall.O_SYNC
