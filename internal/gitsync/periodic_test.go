package gitsync

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
)

// The periodic refresh runs at the ticks; a second start while one runs and
// a non-positive interval start nothing, and no refresh runs after end
// returns.
func TestPeriodicRefreshesUntilStopped(t *testing.T) {
	var p periodic
	log := hclog.NewNullLogger()
	calls := make(chan struct{}, 100)
	var after atomic.Bool
	refresh := func(context.Context) error {
		if after.Load() {
			t.Error("a refresh ran after end returned")
		}
		calls <- struct{}{}
		return core.ErrRefreshInProgress // a skipped tick: logged, not fatal
	}
	p.start(context.Background(), 0, log, refresh) // refused
	p.start(context.Background(), time.Millisecond, log, refresh)
	second := make(chan struct{}, 1)
	p.start(context.Background(), time.Millisecond, log, func(context.Context) error { second <- struct{}{}; return nil })
	for range 3 {
		<-calls
	}
	p.end()
	after.Store(true)
	time.Sleep(5 * time.Millisecond) // ticks that would have come
	select {
	case <-second:
		t.Error("a second start while one ran started another loop")
	default:
	}
	p.end() // again: nothing to stop
}

// On a fake clock the refresh runs once per interval (the default 15
// minutes), none after end; a loop ended by its context starts again.
func TestPeriodicInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var p periodic
		calls := 0
		refresh := func(context.Context) error { calls++; return nil }
		start := time.Now()
		p.start(t.Context(), 15*time.Minute, hclog.NewNullLogger(), refresh)
		time.Sleep(44 * time.Minute)
		synctest.Wait()
		if calls != 2 {
			t.Errorf("refreshes after 44 minutes: got %d, want 2", calls)
		}
		p.end()
		time.Sleep(time.Hour)
		synctest.Wait()
		if calls != 2 {
			t.Errorf("refreshes after end: got %d, want 2", calls)
		}
		if elapsed := time.Since(start); elapsed != 104*time.Minute {
			t.Errorf("fake clock: got %v, want 1h44m", elapsed)
		}

		ctx, cancel := context.WithCancel(t.Context())
		p.start(ctx, time.Minute, hclog.NewNullLogger(), refresh)
		time.Sleep(90 * time.Second)
		synctest.Wait()
		cancel()
		synctest.Wait()
		time.Sleep(time.Hour)
		synctest.Wait()
		if calls != 3 {
			t.Errorf("refreshes once its context ended: got %d, want 3", calls)
		}
		p.start(t.Context(), time.Minute, hclog.NewNullLogger(), refresh) // restartable after its context ended
		time.Sleep(61 * time.Second)
		synctest.Wait()
		p.end()
		if calls != 4 {
			t.Errorf("refreshes after a restart: got %d, want 4", calls)
		}
	})
}

// Every listener added is told of every result, in the order added; nil is
// ignored.
func TestListenersAreToldInOrder(t *testing.T) {
	var l listeners
	var got []string
	l.add(func(r Result) { got = append(got, r.CommitHash) })
	l.add(nil)
	l.add(func(r Result) { got = append(got, r.CommitHash+"0") })
	l.notify(Result{CommitHash: "1"})
	l.notify(Result{CommitHash: "2"})
	if want := []string{"1", "10", "2", "20"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("listeners saw %v, want %v", got, want)
	}
}
