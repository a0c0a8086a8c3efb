package launch

import "testing"

// TestNilProcessesRegistersNothing: a runner or helper given no table still
// starts its process, and a nil table kills and reaps nothing.
func TestNilProcessesRegistersNothing(t *testing.T) {
	var p *Processes
	started := 0
	end := p.StartRun(NewRunMarker(), func() int { started++; return 0 })
	end()
	p.StartHelper(func() int { started++; return 0 })
	if started != 2 {
		t.Errorf("start called %d times, want 2", started)
	}
	if n, err := p.KillOrphans(); n != 0 || err != nil {
		t.Errorf("KillOrphans() = %d, %v; want 0, nil", n, err)
	}
	if n := p.ReapZombies(); n != 0 {
		t.Errorf("ReapZombies() = %d, want 0", n)
	}
}

// TestProcessesForgetsEndedRuns: a run's marker and leader are registered
// while it runs and forgotten when its end is called.
func TestProcessesForgetsEndedRuns(t *testing.T) {
	p := NewProcesses()
	marker := NewRunMarker()
	end := p.StartRun(marker, func() int { return 12345 })
	if !p.markers[marker] || !p.leaders[12345] {
		t.Fatalf("during the run: markers %v, leaders %v; want both registered", p.markers, p.leaders)
	}
	end()
	if len(p.markers) != 0 || len(p.leaders) != 0 {
		t.Errorf("after the run: markers %v, leaders %v; want none", p.markers, p.leaders)
	}
}
