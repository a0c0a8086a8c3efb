package gitsync

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestStartPeriodicPicksUpPushedCommit(t *testing.T) {
	f := newFixture(t)
	s := f.initialized()
	updates := make(chan Result, 4)
	s.OnUpdate(func(r Result) { updates <- r })
	f.commit(map[string]string{"skills/periodic.md": "picked up\n"})
	f.push(false)

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s.StartPeriodic(ctx, 10*time.Millisecond)
	s.StartPeriodic(ctx, 10*time.Millisecond) // a second start is ignored
	if !strings.Contains(f.logs.String(), "already running") {
		t.Errorf("logs: got %q, want the second start refused", f.logs.String())
	}
	select {
	case res := <-updates:
		if !res.Success || res.CommitHash != f.head().String() || res.FilesChanged != 1 {
			t.Errorf("periodic update: got %+v, want head %s with 1 file", res, f.head())
		}
	case <-ctx.Done():
		t.Fatalf("no periodic update before the deadline: %v", ctx.Err())
	}
	s.Stop()
	s.Stop() // idempotent

	// Stopped: a new commit is not picked up until a refresh is asked for.
	f.commit(map[string]string{"skills/later.md": "later\n"})
	f.push(false)
	if got := readTree(t, f.dir)["skills/later.md"]; got != "" {
		t.Errorf("skills/later.md after Stop: got %q, want absent", got)
	}
	if len(updates) != 0 {
		t.Errorf("updates after Stop: got %d, want 0", len(updates))
	}
}

// TestStartPeriodicInterval runs the refresh loop in a synctest bubble, counting
// syncs with the test hook: the fake clock shows one refresh per interval of
// the default 15 minutes, and none after Stop.
func TestStartPeriodicInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		s := f.syncer(f.options())
		calls := 0
		s.beforeSync = func() { calls++ }
		start := time.Now()
		s.StartPeriodic(t.Context(), 15*time.Minute)

		time.Sleep(44 * time.Minute)
		synctest.Wait()
		if calls != 2 {
			t.Errorf("refreshes after 44 minutes: got %d, want 2", calls)
		}
		s.Stop()
		time.Sleep(time.Hour)
		synctest.Wait()
		if calls != 2 {
			t.Errorf("refreshes after Stop: got %d, want 2", calls)
		}
		if elapsed := time.Since(start); elapsed != 104*time.Minute {
			t.Errorf("fake clock: got %v, want 1h44m", elapsed)
		}
	})
}

func TestStartPeriodicStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		s := f.syncer(f.options())
		calls := 0
		s.beforeSync = func() { calls++ }
		ctx, cancel := context.WithCancel(t.Context())
		s.StartPeriodic(ctx, time.Minute)
		time.Sleep(90 * time.Second)
		synctest.Wait()
		cancel()
		synctest.Wait()
		time.Sleep(time.Hour)
		synctest.Wait()
		if calls != 1 {
			t.Errorf("refreshes: got %d, want 1", calls)
		}
		s.StartPeriodic(t.Context(), time.Minute) // restartable after its context ended
		time.Sleep(61 * time.Second)
		synctest.Wait()
		s.Stop()
		if calls != 2 {
			t.Errorf("refreshes after restart: got %d, want 2", calls)
		}
	})
}
