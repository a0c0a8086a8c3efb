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
//   - while a rebuild runs the goal is lower (refreshGCPercent while a
//     snapshot of skills is served, firstBuildGCPercent for the first), which
//     collects more often during the build (proportionally to the heap, so a
//     very large tree costs more collections, never a collection per
//     allocation as a hard memory limit the live heap outgrows would);
//   - once the new snapshot is served and the old one is no longer
//     referenced (after the resource sync, which compares it with the new),
//     one collection returns the old snapshot's memory to the system.
//
// A memory limit set by GOMEMLIMIT still applies on top (docs/RATIONALE.md).

// The collector's goal while a rebuild runs: 15 when the build comes on top
// of a served snapshot (a refresh: at 10,000 skills, with the sync walking
// nothing more and the unchanged skills' strings shared, 55-56.6 MiB peak
// against 57.7-58.4 at 25 and 53.4-54.6 at 10, for 365 ms of CPU per refresh
// against 320 and 445), 75 for the first build, whose
// CPU is the start-up's (at 10,000 skills 50 cost it 20-40 ms more and 100
// kept 1.5 MiB more resident once idle, for no CPU measurably saved).
const (
	refreshGCPercent    = 15
	firstBuildGCPercent = 75
)

// gcTuning counts the rebuilds running, so that the goal is restored when the
// last one ends; operatorGC is set when the environment chose the collector's
// settings, which are then left alone.
var gcTuning struct {
	mu         sync.Mutex
	running    int
	saved      int // the goal before the first of the running rebuilds
	percent    int // the goal set: the lowest asked for by a running rebuild
	operatorGC bool
}

func init() { gcTuning.operatorGC = os.Getenv("GOGC") != "" }

// tightenGCForRebuild lowers the collector's goal to percent for the
// duration of a rebuild (to the lowest asked for while several run); call
// the function it returns when the rebuild ends.
func tightenGCForRebuild(percent int) (restore func()) {
	if gcTuning.operatorGC {
		return func() {}
	}
	gcTuning.mu.Lock()
	switch {
	case gcTuning.running == 0:
		gcTuning.saved, gcTuning.percent = debug.SetGCPercent(percent), percent
	case percent < gcTuning.percent:
		debug.SetGCPercent(percent)
		gcTuning.percent = percent
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
