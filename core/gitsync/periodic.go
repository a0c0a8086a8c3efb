package gitsync

import (
	"context"
	"errors"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// StartPeriodic calls ForceRefresh every interval (spec 000 §9.3) in a goroutine
// until ctx is done or Stop is called. Failures are logged by the sync and
// retried at the next tick. A non-positive interval, or a second call while a
// periodic refresh runs, does nothing but log.
func (s *Syncer) StartPeriodic(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		s.log.Warn("periodic refresh not started: the interval must be positive", "interval", interval)
		return
	}
	s.periodicMu.Lock()
	defer s.periodicMu.Unlock()
	if s.periodicDone != nil {
		select {
		case <-s.periodicDone: // ended with its context: may start again
		default:
			s.log.Warn("periodic refresh already running")
			return
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.stopPeriodic, s.periodicDone = cancel, done
	go s.runPeriodic(ctx, interval, done)
}

// Stop ends the periodic refresh, cancelling a refresh in flight, and waits for
// its goroutine. It is safe to call at any time, more than once.
func (s *Syncer) Stop() {
	s.periodicMu.Lock()
	cancel, done := s.stopPeriodic, s.periodicDone
	s.stopPeriodic, s.periodicDone = nil, nil
	s.periodicMu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

func (s *Syncer) runPeriodic(ctx context.Context, interval time.Duration, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(interval)
	defer t.Stop()
	s.log.Debug("periodic refresh started", "interval", interval)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.ForceRefresh(ctx); errors.Is(err, core.ErrRefreshInProgress) {
			s.log.Debug("periodic refresh skipped: a refresh is running")
		}
	}
}
