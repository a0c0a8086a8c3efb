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
	// Deliver takes the delivery turn, unless another process holds it: then
	// it returns false and does nothing, at once when ctx has no deadline
	// (that process delivers these events), else once ctx is done if the turn
	// did not come free (a final flush waits for it). Holding the turn it
	// calls send with every stored event, oldest first, and removes exactly
	// those events when send returns nil; when send fails they stay, with
	// their ids, for the next attempt. Events emitted meanwhile are sent in
	// the same turn or kept for the next.
	Deliver(ctx context.Context, send func(context.Context, []core.Event) error) (bool, error)
	// ReadAll returns every stored event not yet delivered, oldest first. An
	// empty or missing store yields no events and no error.
	ReadAll(ctx context.Context) ([]core.Event, error)
	// Clear removes every stored event.
	Clear(ctx context.Context) error
}
