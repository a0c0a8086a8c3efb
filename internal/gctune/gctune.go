// Package gctune is the process's collector policy around the server's
// memory-heavy builds: the goal lowered while one runs, the old snapshot's
// memory returned to the system after. The command package hands it to the
// server (internal/server.Options.MemoryPolicy) unless the operator set GOGC;
// a library user of internal/server gets nothing of it unless it does the same.
//
// Why: a rebuild holds two snapshots at once, the one being served and the
// one being built, with the build's garbage on top. With the collector's
// default goal (GOGC=100: the heap may grow to twice what the last
// collection found live), a collection in the middle of a 10,000-skill
// rebuild set the goal at twice both snapshots, and the process's resident
// memory stayed there after the swap, since nothing allocates in an idle
// server to trigger the next collection. So:
//
//   - while a build runs the goal is the lower one it asks for, which
//     collects more often during the build (proportionally to the heap, so a
//     very large tree costs more collections, never a collection per
//     allocation as a hard memory limit the live heap outgrows would);
//   - once the new snapshot is served and the old one is no longer
//     referenced, one collection returns the old snapshot's memory to the
//     system.
//
// A memory limit set by GOMEMLIMIT still applies on top (docs/RATIONALE.md).
package gctune

import (
	"runtime/debug"
	"sync"
)

// Policy counts the builds running, so that the goal is restored when the
// last one ends. The zero value is ready; it satisfies
// internal/server.MemoryPolicy.
type Policy struct {
	mu      sync.Mutex
	running int
	saved   int // the goal before the first of the running builds
	percent int // the goal set: the lowest asked for by a running build
}

// Tighten lowers the collector's goal to percent for the duration of a
// build (to the lowest asked for while several run); call the function it
// returns when the build ends.
func (p *Policy) Tighten(percent int) (restore func()) {
	p.mu.Lock()
	switch {
	case p.running == 0:
		p.saved, p.percent = debug.SetGCPercent(percent), percent
	case percent < p.percent:
		debug.SetGCPercent(percent)
		p.percent = percent
	}
	p.running++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.running--
		if p.running == 0 {
			debug.SetGCPercent(p.saved)
		}
	}
}

// Release collects once and returns the freed memory to the system: called
// when an old snapshot (or a build's garbage) is no longer referenced.
func (p *Policy) Release() { debug.FreeOSMemory() }
