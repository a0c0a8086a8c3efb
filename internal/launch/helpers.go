package launch

// StartHelper registers a helper of this server while start starts it: a
// process the server waits for itself (the .wasm and git helpers) but that
// leads a process group of its own, so that being in the server's group no
// longer spares it. start returns the helper's pid (0 when it failed).
// KillOrphans and ReapZombies leave a registered helper alone for as long as
// that process lives: neither kills a warm helper when a script run ends,
// nor reaps an exited one before its own Wait does (which would then fail
// with ECHILD). A registration ends by itself with the process (it is
// recognised by its pid and its start time, so a reused pid is not spared).
// On a nil *Processes it only calls start.
func (p *Processes) StartHelper(start func() int) {
	if p == nil {
		start()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for pid, began := range p.helpers {
		if startTime(pid) != began {
			delete(p.helpers, pid) // ended and waited for
		}
	}
	if pid := start(); pid > 0 {
		if began := startTime(pid); began != "" {
			p.helpers[pid] = began
		}
	}
}

// isHelper reports whether pid is a helper StartHelper registered that still
// runs (or is a zombie not yet waited for). The caller holds p.mu.
func (p *Processes) isHelper(pid int) bool {
	began, ok := p.helpers[pid]
	return ok && startTime(pid) == began
}
