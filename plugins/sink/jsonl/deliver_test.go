package jsonl

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestDeliverKeepsWhatWasNotTaken covers the delivery turn of one buffer
// seen by two Buffer values (two processes): a failed send keeps the events
// with their ids, an append during a send is kept for the next turn, and the
// other holder's turn is refused while one is in progress.
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
	var sent []core.Event
	ok, err := a.Deliver(ctx, func(_ context.Context, evs []core.Event) error {
		// Meanwhile the other process appends, and cannot take the turn.
		if err := b.Emit(ctx, withIDs(eventRange(3, 5))); err != nil {
			t.Error(err)
		}
		if ok, err := b.Deliver(ctx, func(context.Context, []core.Event) error { t.Error("two turns at once"); return nil }); ok || err != nil {
			t.Errorf("second turn = %v, %v; want refused", ok, err)
		}
		sent = evs
		return nil
	})
	if !ok || err != nil {
		t.Fatalf("Deliver = %v, %v", ok, err)
	}
	if got := ids(sent); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("sent %v, want the three kept after the failure", got)
	}
	left, err := b.ReadAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(left); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("left %v, want the two appended during the send", got)
	}
}
