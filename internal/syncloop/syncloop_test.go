package syncloop

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
)

// TestPeriodicRefreshesUntilStopped: refresh runs at the ticks, a second
// Start while one runs and a non-positive interval start nothing, and no
// refresh runs after Stop returns.
func TestPeriodicRefreshesUntilStopped(t *testing.T) {
	var p Periodic
	log := hclog.NewNullLogger()
	calls := make(chan struct{}, 100)
	var after atomic.Bool
	refresh := func(context.Context) error {
		if after.Load() {
			t.Error("a refresh ran after Stop returned")
		}
		calls <- struct{}{}
		return core.ErrRefreshInProgress // a skipped tick: logged, not fatal
	}
	p.Start(context.Background(), 0, log, refresh) // refused
	p.Start(context.Background(), time.Millisecond, log, refresh)
	second := make(chan struct{}, 1)
	p.Start(context.Background(), time.Millisecond, log, func(context.Context) error { second <- struct{}{}; return nil })
	for range 3 {
		<-calls
	}
	p.Stop()
	after.Store(true)
	time.Sleep(5 * time.Millisecond) // ticks that would have come
	select {
	case <-second:
		t.Error("a second Start while one ran started another loop")
	default:
	}
	p.Stop() // again: nothing to stop
}

// TestPeriodicStartsAgainAfterItsContextEnds: a loop ended by its context may
// be started again.
func TestPeriodicStartsAgainAfterItsContextEnds(t *testing.T) {
	var p Periodic
	log := hclog.NewNullLogger()
	ctx, cancel := context.WithCancel(context.Background())
	p.Start(ctx, time.Millisecond, log, func(context.Context) error { return nil })
	cancel()
	<-p.done
	calls := make(chan struct{}, 10)
	p.Start(context.Background(), time.Millisecond, log, func(context.Context) error { calls <- struct{}{}; return nil })
	<-calls
	p.Stop()
}

// TestListenersAreToldInOrder: every listener added is told of every value,
// in the order added; nil is ignored.
func TestListenersAreToldInOrder(t *testing.T) {
	var l Listeners[int]
	var got []int
	l.Add(func(v int) { got = append(got, v) })
	l.Add(nil)
	l.Add(func(v int) { got = append(got, v*10) })
	l.Notify(1)
	l.Notify(2)
	if want := []int{1, 10, 2, 20}; len(got) != len(want) || got[0] != 1 || got[1] != 10 || got[2] != 2 || got[3] != 20 {
		t.Errorf("listeners saw %v, want %v", got, want)
	}
}
