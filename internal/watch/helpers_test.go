package watch

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// patience bounds every wait on the real clock; it is generous on purpose and
// never asserted as a speed.
const patience = 20 * time.Second

// running is a Watcher started by start, with its OnChange calls counted.
type running struct {
	w      *Watcher
	count  atomic.Int32
	calls  chan struct{} // one value per OnChange call
	cancel context.CancelFunc
	done   chan error // Run's result
}

// start builds a Watcher with opts (OnChange is set here), runs it, waits until
// its initial watches are in place, and stops it at the end of the test.
func start(t *testing.T, opts Options, extra ...option) *running {
	t.Helper()
	r := build(t, opts, extra...)
	r.run(t)
	return r
}

// build is the Watcher of start, not yet running.
func build(t *testing.T, opts Options, extra ...option) *running {
	t.Helper()
	r := &running{calls: make(chan struct{}, 10000), done: make(chan error, 1)}
	opts.OnChange = func() {
		r.count.Add(1)
		r.calls <- struct{}{}
	}
	w, err := newWatcher(opts, extra...)
	if err != nil {
		t.Fatalf("newWatcher: got error %v, want nil", err)
	}
	r.w = w
	return r
}

// run runs the built Watcher, waits until its initial watches are in place,
// and stops it at the end of the test.
func (r *running) run(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- r.w.Run(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	select {
	case <-r.w.ready:
	case <-time.After(patience):
		t.Fatalf("watcher not ready after %v", patience)
	}
}

// stop cancels Run and checks that it returns nil.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok && err != nil {
			t.Errorf("Run: got error %v, want nil", err)
		}
		if ok {
			close(r.done)
		}
	case <-time.After(patience):
		t.Errorf("Run did not return within %v of the context ending", patience)
	}
}

// waitChange waits for one OnChange call after what happened.
func (r *running) waitChange(t *testing.T, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	select {
	case <-r.calls:
	case <-ctx.Done():
		t.Fatalf("after %s: got no OnChange within %v, want one", what, patience)
	}
}

// settle waits d on the real clock, then drops the calls seen meanwhile and
// returns the total count.
func (r *running) settle(d time.Duration) int {
	time.Sleep(d)
	for {
		select {
		case <-r.calls:
		default:
			return int(r.count.Load())
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}
