package gitsync

import (
	"context"
	"time"
)

// StartPeriodic calls ForceRefresh every interval (spec 000 §9.3) in a goroutine
// until ctx is done or Stop is called. Failures are logged by the sync and
// retried at the next tick. A non-positive interval, or a second call while a
// periodic refresh runs, does nothing but log.
func (s *Syncer) StartPeriodic(ctx context.Context, interval time.Duration) {
	s.periodic.Start(ctx, interval, s.log, func(ctx context.Context) error {
		_, err := s.ForceRefresh(ctx)
		return err
	})
}

// Stop ends the periodic refresh, cancelling a refresh in flight, and waits for
// its goroutine. It is safe to call at any time, more than once.
func (s *Syncer) Stop() { s.periodic.Stop() }
