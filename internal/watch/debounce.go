package watch

import (
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
)

// stopper is the part of *time.Timer the debouncer uses.
type stopper interface{ Stop() bool }

// afterFunc schedules f after d, like time.AfterFunc; tests inject a fake.
type afterFunc func(d time.Duration, f func()) stopper

func realAfterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// debouncer calls fire once after triggers have been quiet for delay. fire
// never runs concurrently with itself: a timer that expires while fire runs
// makes fire run again as soon as it returns, so no trigger is lost.
type debouncer struct {
	delay time.Duration
	after afterFunc
	fire  func()
	log   hclog.Logger

	mu      sync.Mutex
	idle    sync.Cond // signalled when running turns false
	timer   stopper   // the pending timer, nil when none
	gen     uint64    // incremented by each trigger; a timer only fires for its own generation
	running bool      // fire is executing
	again   bool      // a timer expired while fire was running
	stopped bool
}

func newDebouncer(delay time.Duration, fire func(), after afterFunc, log hclog.Logger) *debouncer {
	d := &debouncer{delay: delay, after: after, fire: fire, log: log}
	d.idle.L = &d.mu
	return d
}

// trigger (re)starts the quiet-period timer. It does nothing once stopped.
func (d *debouncer) trigger() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	if d.timer != nil {
		d.timer.Stop() // a timer that already fired is made stale by gen
	}
	d.gen++
	d.again = false // the new timer fires after everything that set again
	gen := d.gen
	d.timer = d.after(d.delay, func() { d.expire(gen) })
}

// expire runs when the timer of generation gen fires.
func (d *debouncer) expire(gen uint64) {
	d.mu.Lock()
	if d.stopped || gen != d.gen {
		d.mu.Unlock()
		return
	}
	d.timer = nil
	if d.running {
		d.again = true
		d.mu.Unlock()
		return
	}
	d.running = true
	d.mu.Unlock()
	for {
		d.safeFire()
		d.mu.Lock()
		if !d.again || d.stopped {
			d.running, d.again = false, false
			d.idle.Broadcast()
			d.mu.Unlock()
			return
		}
		d.again = false
		d.mu.Unlock()
	}
}

// safeFire calls fire, turning a panic into an error log.
func (d *debouncer) safeFire() {
	defer func() {
		if v := recover(); v != nil {
			d.log.Error("change callback panicked", "panic", v)
		}
	}()
	d.fire()
}

// stop cancels the pending timer; later triggers do nothing. A fire in
// progress finishes; wait waits for it.
func (d *debouncer) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

// wait blocks until no fire is running. It must not be called from fire.
func (d *debouncer) wait() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.running {
		d.idle.Wait()
	}
}
