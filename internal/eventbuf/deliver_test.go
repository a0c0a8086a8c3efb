package eventbuf

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestDeliverKeepsWhatWasNotTaken covers the delivery turn of one buffer
// seen by two Buffer values (two processes): a failed send keeps the events
// with their ids, an append during a send is sent in the same turn, and the
// other holder's turn is refused while one is in progress (at once without a
// deadline).
func TestDeliverKeepsWhatWasNotTaken(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	a, b := New(path), New(path)
	withIDs := func(evs []core.Event) []core.Event {
		for i := range evs {
			evs[i].ID = fmt.Sprint("id", evs[i].Data["id"])
		}
		return evs
	}
	if err := a.Emit(ctx, withIDs(eventRange(0, 3))); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("endpoint down")
	if ok, err := a.Deliver(ctx, func(context.Context, []core.Event) error { return boom }); !ok || !errors.Is(err, boom) {
		t.Fatalf("Deliver = %v, %v; want the send's error", ok, err)
	}
	var sent [][]int
	ok, err := a.Deliver(ctx, func(_ context.Context, evs []core.Event) error {
		if len(sent) == 0 {
			// Meanwhile the other process appends, and cannot take the turn.
			if err := b.Emit(ctx, withIDs(eventRange(3, 5))); err != nil {
				t.Error(err)
			}
			if ok, err := b.Deliver(ctx, func(context.Context, []core.Event) error { t.Error("two turns at once"); return nil }); ok || err != nil {
				t.Errorf("second turn = %v, %v; want refused", ok, err)
			}
		}
		sent = append(sent, ids(evs))
		return nil
	})
	if !ok || err != nil {
		t.Fatalf("Deliver = %v, %v", ok, err)
	}
	if len(sent) != 2 || !slices.Equal(sent[0], []int{0, 1, 2}) || !slices.Equal(sent[1], []int{3, 4}) {
		t.Errorf("sent %v, want the three kept after the failure, then the two appended during the send", sent)
	}
	if left, err := b.ReadAll(ctx); err != nil || len(left) != 0 {
		t.Errorf("left %v, %v; want nothing", ids(left), err)
	}
}

// TestDeliverWaitsForTheTurnWithADeadline: a final flush (a ctx with a
// deadline) waits for the other process's turn to end instead of leaving its
// events to the next start; each event is delivered once, by one turn.
func TestDeliverWaitsForTheTurnWithADeadline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	a, b := New(path), New(path)
	ctx := context.Background()
	var mu sync.Mutex
	var sent []int
	record := func(evs []core.Event) {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, ids(evs)...)
	}
	release, holding := make(chan struct{}), make(chan struct{})
	var once sync.Once
	aDone := make(chan struct{})
	go func() {
		defer close(aDone)
		_ = a.Emit(ctx, eventRange(0, 1))
		_, _ = a.Deliver(ctx, func(_ context.Context, evs []core.Event) error {
			once.Do(func() { close(holding); <-release })
			record(evs)
			return nil
		})
	}()
	<-holding
	if err := b.Emit(ctx, eventRange(1, 2)); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, func() { close(release) })
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ok, err := b.Deliver(dctx, func(_ context.Context, evs []core.Event) error { record(evs); return nil })
	<-aDone
	if err != nil || !ok {
		t.Fatalf("Deliver = %v, %v; want the turn after waiting for it", ok, err)
	}
	left, _ := b.ReadAll(ctx)
	slices.Sort(sent)
	if len(left) != 0 || !slices.Equal(sent, []int{0, 1}) {
		t.Errorf("sent %v, left %v; want each event delivered once", sent, ids(left))
	}
}
