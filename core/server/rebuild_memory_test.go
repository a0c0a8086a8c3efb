package server

import (
	"runtime/metrics"
	"testing"
)

func gcPercent() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestRebuildGCGoalRestored: the collector's goal is lowered while any
// rebuild runs and restored once the last one ends, overlapping or not.
func TestRebuildGCGoalRestored(t *testing.T) {
	if gcTuning.operatorGC {
		t.Skip("GOGC is set: the goal is the operator's")
	}
	before := gcPercent()
	r1 := tightenGCForRebuild(firstBuildGCPercent)
	if got := gcPercent(); got != firstBuildGCPercent {
		t.Fatalf("during a first build: GOGC %d, want %d", got, firstBuildGCPercent)
	}
	r2 := tightenGCForRebuild(refreshGCPercent)
	if got := gcPercent(); got != refreshGCPercent {
		t.Fatalf("during two rebuilds: GOGC %d, want the lower, %d", got, refreshGCPercent)
	}
	r1()
	if got := gcPercent(); got != refreshGCPercent {
		t.Fatalf("while one rebuild still runs: GOGC %d, want %d", got, refreshGCPercent)
	}
	r2()
	if got := gcPercent(); got != before {
		t.Fatalf("after the rebuilds: GOGC %d, want %d", got, before)
	}
}
