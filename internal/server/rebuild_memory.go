package server

// A rebuild holds two snapshots at once, and an idle server does not
// allocate to trigger the collection that would hand the old one back: the
// process's collector policy (internal/gctune, which the command package
// installs unless the operator set GOGC) lowers the collector's goal while
// a rebuild runs and returns the old snapshot's memory after the swap. The
// server says when, and which goal its builds need; the process decides.

// The collector's goal a rebuild asks for: 15 when the build comes on top
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

// MemoryPolicy is what the process does with the Go collector around the
// server's memory-heavy builds (a rebuild, the skills_search index). The
// collector is the process's, so the policy is too: the command package
// builds one (internal/gctune) and hands it over in Options.MemoryPolicy.
type MemoryPolicy interface {
	// Tighten is called when a build starts, with the collector goal
	// (GOGC percent) the build asks for; the function it returns is called
	// when the build ends.
	Tighten(percent int) (restore func())
	// Release is called once an old snapshot, or a build's garbage, is no
	// longer referenced.
	Release()
}

// tightenGCForRebuild tells the policy p (nil: none) a build that asks for
// the goal percent starts; call the function it returns when the build ends.
func tightenGCForRebuild(p MemoryPolicy, percent int) (restore func()) {
	if p != nil {
		return p.Tighten(percent)
	}
	return func() {}
}

// releaseOldSnapshot tells the policy p (nil: none) an old snapshot, or a
// build's garbage, is no longer referenced.
func releaseOldSnapshot(p MemoryPolicy) {
	if p != nil {
		p.Release()
	}
}

// buildReleasing returns what runs build, skills_search's build of a snapshot's word
// index, with the collector's goal lowered while it runs and its garbage
// handed back to the system after. The build reads every body once: on the
// nine public collections (1,548 skills, bodies of real length) it allocates
// about 150 MB for an index of about 18 MB, and with the default goal an
// idle server kept the high-water heap (97 MB resident after the first
// search, 46 MB with this). It runs once per snapshot, so the extra
// collections cost little; under policy p (nil: none), as a rebuild.
func buildReleasing(p MemoryPolicy) func(build func()) {
	return func(build func()) {
		restore := tightenGCForRebuild(p, refreshGCPercent)
		build()
		restore()
		releaseOldSnapshot(p)
	}
}
