package gitsync

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
)

// periodic runs one periodic refresh at a time (spec 000 §9.3). The zero
// value is ready.
type periodic struct {
	mu   sync.Mutex
	stop context.CancelFunc
	done chan struct{}
}

// start calls refresh every interval in a goroutine until ctx is done or
// stop is called. Failures are the refresh's to log; a tick that finds a
// refresh running (core.ErrRefreshInProgress) is skipped. A non-positive
// interval, or a second start while one runs, does nothing but log.
func (p *periodic) start(ctx context.Context, interval time.Duration, log hclog.Logger, refresh func(context.Context) error) {
	if interval <= 0 {
		log.Warn("periodic refresh not started: the interval must be positive", "interval", interval)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done != nil {
		select {
		case <-p.done: // ended with its context: may start again
		default:
			log.Warn("periodic refresh already running")
			return
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	p.stop, p.done = cancel, done
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		log.Debug("periodic refresh started", "interval", interval)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := refresh(ctx); errors.Is(err, core.ErrRefreshInProgress) {
				log.Debug("periodic refresh skipped: a refresh is running")
			}
		}
	}()
}

// end stops the periodic refresh, cancelling a refresh in flight, and waits
// for its goroutine. It is safe to call at any time, more than once.
func (p *periodic) end() {
	p.mu.Lock()
	cancel, done := p.stop, p.done
	p.stop, p.done = nil, nil
	p.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

// listeners are the functions told of each sync that moved the head. The
// zero value is ready.
type listeners struct {
	mu  sync.Mutex
	fns []func(Result)
}

// add registers fn; a nil fn is ignored.
func (l *listeners) add(fn func(Result)) {
	if fn == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fns = append(l.fns, fn)
}

// notify calls every listener with res, outside the lock, in the caller's
// goroutine: listeners must be safe for concurrent use.
func (l *listeners) notify(res Result) {
	l.mu.Lock()
	fns := slices.Clone(l.fns)
	l.mu.Unlock()
	for _, fn := range fns {
		fn(res)
	}
}
