package sandbox

import "sync"

// runs holds the script runs in progress of this process: their markers
// (registered before the script starts) and their leaders' pids. KillOrphans
// spares what belongs to them.
var runs = struct {
	sync.Mutex
	markers map[string]bool
	leaders map[int]bool
	helpers map[int]string // pid → start time (StartHelper)
}{markers: map[string]bool{}, leaders: map[int]bool{}, helpers: map[int]string{}}

// StartRun registers a run about to start with marker (an entry of
// NewRunMarker) and calls start, which starts the script and returns its pid
// (0 when it failed). While start runs, no KillOrphans scan happens, so a
// concurrent run's end never mistakes the new leader for an orphan. The
// returned function ends the registration once the leader has been waited for.
func StartRun(marker string, start func() int) (end func()) {
	runs.Lock()
	runs.markers[marker] = true
	pid := start()
	if pid > 0 {
		runs.leaders[pid] = true
	}
	runs.Unlock()
	return func() {
		runs.Lock()
		delete(runs.markers, marker)
		delete(runs.leaders, pid)
		runs.Unlock()
	}
}

// EnableSubreaper makes this process the subreaper of its descendants (linux
// PR_SET_CHILD_SUBREAPER): a process a script started that outlives its
// parent (a double fork, setsid, `env -i`) is reparented to the server
// instead of init, where KillOrphans finds it when the run ends (issue 16,
// item 9). Elsewhere it does nothing and returns nil.
func EnableSubreaper() error { return enableSubreaper() }

// KillOrphans kills every process reparented to this one (see EnableSubreaper)
// that belongs to no run in progress, with all its descendants, and reaps
// them. Spared: the leaders of runs in progress, processes holding the marker
// of a run in progress, the helpers StartHelper registered, and processes in
// this process's own group. A process of a run still in
// progress that cleared its environment (`env -i`) and was orphaned is killed
// by the end of another run: it cannot be told apart. It returns how many
// processes it killed.
func KillOrphans() (int, error) { return killOrphans() }

// ReapZombies waits for every zombie child of this process that no one else
// waits for (not a run's leader, not a registered helper, not in this
// process's group), so that as
// PID 1 in a container the server leaves no zombies. It returns how many it
// reaped.
func ReapZombies() int { return reapZombies() }
