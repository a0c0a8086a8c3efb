package skillscmd

import (
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// TestComponentsStopInReverseOnce: the parts stop last started first, each
// with the one deadline, and only once.
func TestComponentsStopInReverseOnce(t *testing.T) {
	t.Parallel()
	var g components
	var stopped []string
	deadline := time.Unix(1000, 0)
	for _, name := range []string{"watcher", "runners", "telemetry", "analytics"} {
		g.started(name, func(d time.Time) {
			if !d.Equal(deadline) {
				t.Errorf("%s: deadline %v, want %v", name, d, deadline)
			}
			stopped = append(stopped, name)
		})
	}
	g.stop(deadline, hclog.NewNullLogger())
	g.stop(deadline, hclog.NewNullLogger())
	if want := []string{"analytics", "telemetry", "runners", "watcher"}; !slices.Equal(stopped, want) {
		t.Errorf("stopped %v, want %v", stopped, want)
	}
}
