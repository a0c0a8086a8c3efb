package gctune

import (
	"os"
	"runtime/metrics"
	"testing"
)

func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// While builds overlap the goal is the lowest any of them asked for (it
// stays so when the lowest ends first), whatever the order they start and
// end in, and the goal from before comes back when the last one ends.
func TestGoalFollowsTheRunningBuilds(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the runtime's goal is the operator's")
	}
	before := gcPercent()
	for _, tc := range []struct {
		name     string
		asks     []int // the builds, started in this order
		endOrder []int // indexes of asks, ended in this order
		want     []int // the goal after each end but the last
	}{
		{"one build", []int{75}, []int{0}, nil},
		{"a lower one starts second", []int{75, 15}, []int{0, 1}, []int{15}},
		{"a higher one starts second", []int{15, 75}, []int{1, 0}, []int{15}},
		{"the lower ends first", []int{75, 15}, []int{1, 0}, []int{15}},
		{"three, ended in start order", []int{50, 15, 75}, []int{0, 1, 2}, []int{15, 15}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Policy
			lowest := tc.asks[0]
			restores := make([]func(), len(tc.asks))
			for i, ask := range tc.asks {
				restores[i] = p.Tighten(ask)
				lowest = min(lowest, ask)
				if got := gcPercent(); got != lowest {
					t.Fatalf("with builds asking %v running: GOGC %d, want %d", tc.asks[:i+1], got, lowest)
				}
			}
			for n, i := range tc.endOrder {
				restores[i]()
				want := before
				if n < len(tc.want) {
					want = tc.want[n]
				}
				if got := gcPercent(); got != want {
					t.Fatalf("after %d of %d builds ended: GOGC %d, want %d", n+1, len(tc.asks), got, want)
				}
			}
		})
	}
}
