package server

import (
	"os"
	"runtime/debug"
	"sync"
)

// A rebuild holds two snapshots at once: the one being served and the one
// being built, with the build's garbage on top. With the collector's default
// goal (GOGC=100: the heap may grow to twice what the last collection found
// live), a collection in the middle of a 10,000-skill rebuild set the goal
// at twice both snapshots, and the process's resident memory stayed there
// after the swap, since nothing allocates in an idle server to trigger the
// next collection. So, unless the operator set GOGC:
//
//   - while a rebuild runs the goal is rebuildGCPercent instead, which
//     collects more often during the build (proportionally to the heap, so a
//     very large tree costs more collections, never a collection per
//     allocation as a hard memory limit the live heap outgrows would);
//   - once the new snapshot is served and the old one is no longer
//     referenced (after the resource sync, which fingerprints the old one),
//     one collection returns the old snapshot's memory to the system.
//
// A memory limit set by GOMEMLIMIT still applies on top (docs/RATIONALE.md).

// rebuildGCPercent is the collector's goal while a rebuild runs.
const rebuildGCPercent = 50

// gcTuning counts the rebuilds running, so that the goal is restored when the
// last one ends; operatorGC is set when the environment chose the collector's
// settings, which are then left alone.
var gcTuning struct {
	mu         sync.Mutex
	running    int
	saved      int
	operatorGC bool
}

func init() { gcTuning.operatorGC = os.Getenv("GOGC") != "" }

// tightenGCForRebuild lowers the collector's goal for the duration of a
// rebuild; call the function it returns when the rebuild ends.
func tightenGCForRebuild() (restore func()) {
	if gcTuning.operatorGC {
		return func() {}
	}
	gcTuning.mu.Lock()
	if gcTuning.running == 0 {
		gcTuning.saved = debug.SetGCPercent(rebuildGCPercent)
	}
	gcTuning.running++
	gcTuning.mu.Unlock()
	return func() {
		gcTuning.mu.Lock()
		defer gcTuning.mu.Unlock()
		gcTuning.running--
		if gcTuning.running == 0 {
			debug.SetGCPercent(gcTuning.saved)
		}
	}
}

// releaseOldSnapshot collects once, after a rebuild's swap and resource
// sync, and returns the freed memory to the system: the old snapshot's.
func releaseOldSnapshot() {
	if gcTuning.operatorGC {
		return
	}
	debug.FreeOSMemory()
}
