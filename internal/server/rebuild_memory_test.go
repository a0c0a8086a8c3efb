package server

import (
	"os"
	"runtime/metrics"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/gctune"
)

// gcTuning says whether the environment chose the collector's settings
// (GOGC): then this package's tests run without the policy, as the command
// runs the server, and the tests of the collector's goal skip.
var gcTuning = struct{ operatorGC bool }{operatorGC: os.Getenv("GOGC") != ""}

func gcPercent() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A rebuild asks the process's policy for the collector goal it needs, the
// lower one while two snapshots live, and the goal comes back once the last
// one ends, overlapping or not.
func TestRebuildGCGoalRestored(t *testing.T) {
	if gcTuning.operatorGC {
		t.Skip("GOGC is set: the goal is the operator's")
	}
	policy := &gctune.Policy{}
	before := gcPercent()
	r1 := tightenGCForRebuild(policy, firstBuildGCPercent)
	if got := gcPercent(); got != firstBuildGCPercent {
		t.Fatalf("during a first build: GOGC %d, want %d", got, firstBuildGCPercent)
	}
	r2 := tightenGCForRebuild(policy, refreshGCPercent)
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
