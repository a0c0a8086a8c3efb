package events

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Start runs the flush loop in a goroutine and returns at once: it calls Flush
// at once (delivering what an earlier process left in the buffer, such as
// feedback acknowledged just before a crash), then every interval (failures are logged by Flush). The loop stops when
// ctx is done or Close is called. Only the first call has an effect, and none
// after Close.
func (p *Publisher) Start(ctx context.Context) {
	p.lifeMu.Lock()
	defer p.lifeMu.Unlock()
	if p.started || p.closed {
		return
	}
	p.started = true
	loopCtx, cancel := context.WithCancel(ctx)
	p.stop = cancel
	p.quit = make(chan struct{})
	p.done = make(chan struct{})
	go p.loop(loopCtx, p.quit, p.done)
}

// inFlightGrace bounds how long Close lets a flush in flight finish before
// cancelling it: a send the endpoint has taken but not yet answered would
// otherwise go to the buffer and be delivered twice.
const inFlightGrace = 5 * time.Second

func (p *Publisher) loop(ctx context.Context, quit <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	ticker := time.NewTicker(p.interval)
	defer ticker.Stop()
	_ = p.Flush(ctx) // Flush logs its own failures.
	for {
		select {
		case <-ctx.Done():
			return
		case <-quit:
			return
		case <-ticker.C:
			_ = p.Flush(ctx) // Flush logs its own failures.
		}
	}
}

// Close stops the loop (a flush in flight is let finish, for at most
// inFlightGrace and within ctx, then cancelled, its events going to the
// buffer), runs a final Flush with ctx, and closes the primary sink and the
// buffer. When the primary fails at close, the new events are in the buffer
// before Close returns. Calls after the first return nil.
func (p *Publisher) Close(ctx context.Context) error {
	p.lifeMu.Lock()
	if p.closed {
		p.lifeMu.Unlock()
		return nil
	}
	p.closed = true
	stop, quit, done := p.stop, p.quit, p.done
	p.lifeMu.Unlock()

	if stop != nil {
		close(quit)
		grace := time.NewTimer(inFlightGrace)
		select {
		case <-done:
		case <-grace.C:
		case <-ctx.Done():
		}
		grace.Stop()
		stop()
		<-done
	}
	errs := []error{p.Flush(ctx)}
	if p.primary != nil {
		if err := p.primary.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("closing analytics primary sink: %w", err))
		}
	}
	if p.buffer != nil {
		if err := p.buffer.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("closing analytics buffer: %w", err))
		}
	}
	return errors.Join(errs...)
}
