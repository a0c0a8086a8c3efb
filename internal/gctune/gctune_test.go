package gctune

import (
	"os"
	"runtime/metrics"
	"testing"
)

func gcPercent() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// The collector's goal is lowered while any build runs, to the lowest asked
// for, and restored once the last one ends, overlapping or not.
func TestGoalRestored(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the runtime's goal is the operator's")
	}
	const first, refresh = 75, 15
	var p Policy
	before := gcPercent()
	r1 := p.Tighten(first)
	if got := gcPercent(); got != first {
		t.Fatalf("during a first build: GOGC %d, want %d", got, first)
	}
	r2 := p.Tighten(refresh)
	if got := gcPercent(); got != refresh {
		t.Fatalf("during two builds: GOGC %d, want the lower, %d", got, refresh)
	}
	r1()
	if got := gcPercent(); got != refresh {
		t.Fatalf("while one build still runs: GOGC %d, want %d", got, refresh)
	}
	r2()
	if got := gcPercent(); got != before {
		t.Fatalf("after the builds: GOGC %d, want %d", got, before)
	}
}
