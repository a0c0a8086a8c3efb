package events

import (
	"context"

	"github.com/skills-mcp/skills-mcp/core"
)

// Buffer is the durable store of spec 000 §10.4, shared by every server
// process of one user (issue 16, item 2): events are appended to it (Emit,
// durable when it returns) and delivered from it (Deliver), by one process at
// a time.
type Buffer interface {
	core.Sink
	// Deliver takes the delivery turn, unless another process holds it (then
	// it returns false and does nothing: that process delivers these events).
	// Holding the turn it calls send once with every stored event, oldest
	// first, and removes exactly those events when send returns nil; when send
	// fails they stay, with their ids, for the next attempt. Events emitted
	// meanwhile are kept for the next turn.
	Deliver(ctx context.Context, send func(context.Context, []core.Event) error) (bool, error)
	// ReadAll returns every stored event not yet delivered, oldest first. An
	// empty or missing store yields no events and no error.
	ReadAll(ctx context.Context) ([]core.Event, error)
	// Clear removes every stored event.
	Clear(ctx context.Context) error
}
