package watch

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hashicorp/go-hclog"
)

// fakeClock records the timers a debouncer schedules; tests expire them by hand.
type fakeClock struct {
	timers []*fakeTimer
}

type fakeTimer struct {
	d       time.Duration
	f       func()
	stopped bool
	fired   bool
}

func (c *fakeClock) afterFunc(d time.Duration, f func()) stopper {
	t := &fakeTimer{d: d, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop reports, like time.Timer.Stop, whether it prevented the timer from firing.
func (t *fakeTimer) Stop() bool {
	if t.stopped || t.fired {
		return false
	}
	t.stopped = true
	return true
}

// live returns the timers neither stopped nor fired.
func (c *fakeClock) live() []*fakeTimer {
	var out []*fakeTimer
	for _, t := range c.timers {
		if !t.stopped && !t.fired {
			out = append(out, t)
		}
	}
	return out
}

// expire fires the single live timer, failing when there is not exactly one.
func (c *fakeClock) expire(t *testing.T) {
	t.Helper()
	live := c.live()
	if len(live) != 1 {
		t.Fatalf("got %d live timers, want 1", len(live))
	}
	live[0].fired = true
	live[0].f()
}

func TestDebouncerWithFakeClock(t *testing.T) {
	t.Parallel()
	const delay = 500 * time.Millisecond
	tests := []struct {
		name string
		// run drives the debouncer; fire is what the debouncer calls, after
		// counting the call.
		run      func(t *testing.T, d *debouncer, c *fakeClock)
		fire     func(d *debouncer, c *fakeClock, call int)
		want     int
		wantLive int // live timers left at the end
	}{
		{
			name: "burst of 1000 triggers fires once",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				for range 1000 {
					d.trigger()
				}
				if got := len(c.timers); got != 1000 {
					t.Errorf("got %d timers scheduled, want 1000", got)
				}
				c.expire(t)
			},
			want: 1,
		},
		{
			name: "no trigger never fires",
			run:  func(t *testing.T, d *debouncer, c *fakeClock) {},
			want: 0,
		},
		{
			name: "two bursts separated by the quiet period fire twice",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				for range 10 {
					d.trigger()
				}
				c.expire(t)
				for range 10 {
					d.trigger()
				}
				c.expire(t)
			},
			want: 2,
		},
		{
			name: "trigger during fire schedules another fire",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.trigger()
				c.expire(t) // first fire triggers again
				c.expire(t)
			},
			fire: func(d *debouncer, c *fakeClock, call int) {
				if call == 1 {
					d.trigger()
				}
			},
			want: 2,
		},
		{
			name: "timer expiring during fire fires again right after",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.trigger()
				c.expire(t)
			},
			fire: func(d *debouncer, c *fakeClock, call int) {
				if call == 1 {
					d.trigger()
					live := c.live()
					live[0].fired = true
					live[0].f() // expires while the first fire still runs
				}
			},
			want: 2,
		},
		{
			name: "stale timer that could not be stopped does not fire",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.trigger()
				first := c.timers[0]
				first.fired = true // its goroutine started but has not run yet
				d.trigger()
				first.f()
				c.expire(t)
			},
			want: 1,
		},
		{
			name: "stop cancels the pending timer",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.trigger()
				d.stop()
				c.timers[0].f() // as if Stop had lost the race
			},
			want: 0,
		},
		{
			name: "trigger after stop does nothing",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.stop()
				d.trigger()
				if len(c.timers) != 0 {
					t.Errorf("got %d timers after stop, want 0", len(c.timers))
				}
			},
			want: 0,
		},
		{
			name: "panic in fire is recovered and later bursts still fire",
			run: func(t *testing.T, d *debouncer, c *fakeClock) {
				d.trigger()
				c.expire(t)
				d.trigger()
				c.expire(t)
			},
			fire: func(d *debouncer, c *fakeClock, call int) {
				if call == 1 {
					panic("boom")
				}
			},
			want: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClock{}
			var d *debouncer
			calls := 0
			d = newDebouncer(delay, func() {
				calls++
				if tt.fire != nil {
					tt.fire(d, c, calls)
				}
			}, c.afterFunc, hclog.NewNullLogger())
			tt.run(t, d, c)
			if calls != tt.want {
				t.Errorf("got %d fires, want %d", calls, tt.want)
			}
			if got := len(c.live()); got != tt.wantLive {
				t.Errorf("got %d live timers, want %d", got, tt.wantLive)
			}
			for i, tm := range c.timers {
				if tm.d != delay {
					t.Errorf("timer %d: got delay %v, want %v", i, tm.d, delay)
				}
			}
		})
	}
}

func TestDebouncerLogsPanic(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	c := &fakeClock{}
	d := newDebouncer(time.Second, func() { panic("boom") }, c.afterFunc,
		hclog.New(&hclog.LoggerOptions{Output: &logs}))
	d.trigger()
	c.expire(t)
	if got := logs.String(); !strings.Contains(got, "change callback panicked") || !strings.Contains(got, "panic=boom") {
		t.Errorf("got log %q, want it to mention the panic", got)
	}
}

// TestDebouncerFakeTime runs the real timer code in a synctest bubble, where
// time only moves when every goroutine is blocked.
func TestDebouncerFakeTime(t *testing.T) {
	const delay = 100 * time.Millisecond
	t.Run("burst fires once after the quiet period", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var fires atomic.Int32
			d := newDebouncer(delay, func() { fires.Add(1) }, realAfterFunc, hclog.NewNullLogger())
			defer d.stop()
			for range 1000 { // spans 1 s, but never quiet for delay
				d.trigger()
				time.Sleep(time.Millisecond)
			}
			time.Sleep(delay - 2*time.Millisecond)
			synctest.Wait()
			if got := fires.Load(); got != 0 {
				t.Fatalf("got %d fires before the quiet period ended, want 0", got)
			}
			time.Sleep(2 * time.Millisecond)
			synctest.Wait()
			if got := fires.Load(); got != 1 {
				t.Fatalf("got %d fires after the quiet period, want 1", got)
			}
			time.Sleep(10 * delay)
			synctest.Wait()
			if got := fires.Load(); got != 1 {
				t.Fatalf("got %d fires long after the burst, want 1", got)
			}
			d.trigger() // a second burst
			time.Sleep(delay)
			synctest.Wait()
			if got := fires.Load(); got != 2 {
				t.Fatalf("got %d fires after the second burst, want 2", got)
			}
		})
	})
	t.Run("change during a slow fire gives a second fire, never overlapping", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var (
				mu      sync.Mutex
				active  int
				overlap bool
				ends    []time.Duration
			)
			start := time.Now()
			d := newDebouncer(delay, func() {
				mu.Lock()
				active++
				overlap = overlap || active > 1
				mu.Unlock()
				time.Sleep(5 * delay) // a slow rebuild
				mu.Lock()
				active--
				ends = append(ends, time.Since(start))
				mu.Unlock()
			}, realAfterFunc, hclog.NewNullLogger())
			d.trigger()
			time.Sleep(delay + delay/2) // the first fire runs from delay to 6*delay
			d.trigger()                 // its timer expires at 2.5*delay, during the fire
			time.Sleep(20 * delay)
			synctest.Wait()
			d.stop()
			d.wait()
			mu.Lock()
			defer mu.Unlock()
			if overlap {
				t.Errorf("got overlapping fires, want none")
			}
			want := []time.Duration{6 * delay, 11 * delay}
			if len(ends) != len(want) || ends[0] != want[0] || ends[1] != want[1] {
				t.Errorf("got fires ending at %v, want %v", ends, want)
			}
		})
	})
	t.Run("wait returns once the fire in progress has returned", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var finished atomic.Bool
			d := newDebouncer(delay, func() {
				time.Sleep(time.Second)
				finished.Store(true)
			}, realAfterFunc, hclog.NewNullLogger())
			d.trigger()
			time.Sleep(delay + time.Millisecond) // the fire is now sleeping
			d.stop()
			d.trigger() // ignored after stop
			d.wait()
			if !finished.Load() {
				t.Errorf("got wait returning during the fire, want it to wait for the fire")
			}
		})
	})
}
