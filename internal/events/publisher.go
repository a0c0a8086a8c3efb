package events

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// DefaultInterval is the flush period of spec 000 §10.3.
const DefaultInterval = 30 * time.Second

// PublisherOptions configures NewPublisher.
type PublisherOptions struct {
	// Tracker is drained on every flush; nil means there is nothing to drain
	// (only buffered events are retried).
	Tracker *Tracker
	// Primary receives every batch (the HTTP endpoint). Nil means events go
	// straight to Buffer.
	Primary core.Sink
	// Buffer is the local fallback (the JSONL file). Nil means events whose
	// delivery fails are dropped with an error log.
	Buffer Buffer
	// Interval is the flush period; zero means DefaultInterval.
	Interval time.Duration
	// Logger receives delivery warnings; nil means no logging.
	Logger hclog.Logger
}

// Publisher moves events from a Tracker to a primary sink every interval,
// falling back to a Buffer when delivery fails (spec 000 §10.3, §10.4). It
// never blocks Track: flushing drains the tracker's queue in one short step
// and does its I/O outside the tracker's lock.
type Publisher struct {
	tracker  *Tracker
	primary  core.Sink
	buffer   Buffer
	interval time.Duration
	logger   hclog.Logger

	flushMu sync.Mutex // one flush cycle at a time, so the buffer is read and cleared consistently
	failing bool       // guarded by flushMu; the last delivery failed

	lifeMu  sync.Mutex
	started bool
	closed  bool
	stop    context.CancelFunc
	quit    chan struct{}
	done    chan struct{}
}

// NewPublisher returns a publisher configured by opts; call Start to run its
// loop and Close to stop it.
func NewPublisher(opts PublisherOptions) *Publisher {
	p := &Publisher{
		tracker:  opts.Tracker,
		primary:  opts.Primary,
		buffer:   opts.Buffer,
		interval: opts.Interval,
		logger:   opts.Logger,
	}
	if p.interval <= 0 {
		p.interval = DefaultInterval
	}
	if p.logger == nil {
		p.logger = hclog.NewNullLogger()
	}
	return p
}

// Flush runs one publishing cycle: it drains the tracker and appends the new
// events to the buffer (durable, shared with the other server processes of the
// same home), then, if no other process is delivering, emits everything the
// buffer holds to the primary sink in one batch and removes those events from
// the buffer once the primary has taken them. A failed delivery leaves them in
// the buffer with their ids: the next attempt sends the same events again, so
// an endpoint that answered too late can tell a retry from a new event.
//
// Without a buffer the new events go to the primary directly and are lost when
// it fails; if the buffer cannot be written, the new events are sent directly.
//
// The returned error reports a failed delivery even when the events were kept
// in the buffer; it also reports, joined, any buffer failure that lost events.
// Buffer writes ignore ctx's cancellation so that events drained from the
// tracker always reach the buffer.
func (p *Publisher) Flush(ctx context.Context) error {
	p.flushMu.Lock()
	defer p.flushMu.Unlock()

	var fresh []core.Event
	if p.tracker != nil {
		fresh = p.tracker.Drain()
	}
	if p.buffer == nil || p.primary == nil {
		if p.primary == nil {
			return p.keep(ctx, fresh)
		}
		return p.sendDirect(ctx, fresh)
	}
	if len(fresh) > 0 {
		// An event larger than the whole buffer is left out (and logged) by
		// the buffer, which stored the others: deliver those from it.
		if err := p.buffer.Emit(context.WithoutCancel(ctx), fresh); err != nil && !errors.Is(err, core.ErrEventTooLarge) {
			p.logger.Warn("analytics buffer not writable: sending new events directly", "events", len(fresh), "error", err)
			return p.sendDirect(ctx, fresh)
		}
	}
	var sendErr error
	_, err := p.buffer.Deliver(ctx, func(ctx context.Context, batch []core.Event) error {
		if err := p.primary.Emit(ctx, batch); err != nil {
			p.noteFailure(err, len(batch))
			sendErr = fmt.Errorf("publishing %d analytics events: %w", len(batch), err)
			return sendErr
		}
		p.noteSuccess(len(batch))
		return nil
	})
	if err != nil && sendErr == nil {
		p.logger.Error("analytics buffer: delivery turn failed", "error", err)
		return fmt.Errorf("delivering analytics buffer: %w", err)
	}
	return sendErr
}

// sendDirect emits events to the primary without the buffer; they are lost
// when that fails.
func (p *Publisher) sendDirect(ctx context.Context, events []core.Event) error {
	if len(events) == 0 {
		return nil
	}
	if err := p.primary.Emit(ctx, events); err != nil {
		p.noteFailure(err, len(events))
		p.logger.Error("analytics events lost: delivery failed and no buffer took them", "lost", len(events))
		return fmt.Errorf("publishing %d analytics events: %w", len(events), err)
	}
	p.noteSuccess(len(events))
	return nil
}

// keep appends events to the buffer, ignoring ctx's cancellation.
func (p *Publisher) keep(ctx context.Context, events []core.Event) error {
	if len(events) == 0 {
		return nil
	}
	if p.buffer == nil {
		p.logger.Error("analytics events lost: no buffer configured", "lost", len(events))
		return fmt.Errorf("keeping %d analytics events: no buffer configured", len(events))
	}
	if err := p.buffer.Emit(context.WithoutCancel(ctx), events); err != nil {
		p.logger.Error("analytics events lost: buffer write failed", "lost", len(events), "error", err)
		return fmt.Errorf("buffering %d analytics events: %w", len(events), err)
	}
	return nil
}

// noteFailure logs a delivery failure at Warn the first time, then at Debug
// until delivery recovers, so a down endpoint does not flood the log.
func (p *Publisher) noteFailure(err error, n int) {
	if p.failing {
		p.logger.Debug("analytics delivery still failing; events kept in local buffer", "events", n, "error", err)
		return
	}
	p.failing = true
	p.logger.Warn("analytics delivery failed; events kept in local buffer", "events", n, "error", err)
}

// noteSuccess logs the recovery after a failure.
func (p *Publisher) noteSuccess(n int) {
	if p.failing {
		p.failing = false
		p.logger.Info("analytics delivery recovered", "events", n)
	}
}
