package launch

import "sync"

// Processes is the table of the script runs and helpers of this server that
// are in progress: the runs' markers (registered before the script starts)
// and leaders' pids, and the helpers' pids. KillOrphans and ReapZombies
// spare what belongs to them. The command builds one, with the subreaper,
// and hands it to the exec runners, the helpers' starter (internal/childproc)
// and the reaper; a nil *Processes registers nothing, kills no orphan and
// reaps no zombie. It is safe for concurrent use.
type Processes struct {
	mu      sync.Mutex
	markers map[string]bool
	leaders map[int]bool
	helpers map[int]string // pid → start time (StartHelper)
}

// NewProcesses returns an empty table.
func NewProcesses() *Processes {
	return &Processes{markers: map[string]bool{}, leaders: map[int]bool{}, helpers: map[int]string{}}
}

// StartRun registers a run about to start with marker (an entry of
// NewRunMarker) and calls start, which starts the script and returns its pid
// (0 when it failed). While start runs, no KillOrphans scan happens, so a
// concurrent run's end never mistakes the new leader for an orphan. The
// returned function ends the registration once the leader has been waited for.
// On a nil *Processes it only calls start.
func (p *Processes) StartRun(marker string, start func() int) (end func()) {
	if p == nil {
		start()
		return func() {}
	}
	p.mu.Lock()
	p.markers[marker] = true
	pid := start()
	if pid > 0 {
		p.leaders[pid] = true
	}
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.markers, marker)
		delete(p.leaders, pid)
		p.mu.Unlock()
	}
}

// EnableSubreaper makes this process the subreaper of its descendants (linux
// PR_SET_CHILD_SUBREAPER): a process a script started that outlives its
// parent (a double fork, setsid, `env -i`) is reparented to the server
// instead of init, where KillOrphans finds it when the run ends (issue 16,
// item 9). Elsewhere it does nothing and returns nil. It changes the whole
// process: only the command calls it.
func EnableSubreaper() error { return enableSubreaper() }

// KillOrphans kills every process reparented to this one (see EnableSubreaper)
// that belongs to no run in progress, with all its descendants, and reaps
// them. Spared: the leaders of runs in progress, processes holding the marker
// of a run in progress, the helpers StartHelper registered, and processes in
// this process's own group. A process of a run still in
// progress that cleared its environment (`env -i`) and was orphaned is killed
// by the end of another run: it cannot be told apart. It returns how many
// processes it killed; a nil *Processes kills none.
func (p *Processes) KillOrphans() (int, error) {
	if p == nil {
		return 0, nil
	}
	return p.killOrphans()
}

// ReapZombies waits for every zombie child of this process that no one else
// waits for (not a run's leader, not a registered helper, not in this
// process's group), so that as PID 1 in a container the server leaves no
// zombies. It returns how many it reaped; a nil *Processes reaps none.
func (p *Processes) ReapZombies() int {
	if p == nil {
		return 0
	}
	return p.reapZombies()
}
