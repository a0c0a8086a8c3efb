package events

import (
	"context"

	"github.com/skills-mcp/skills-mcp/core"
)

// Buffer is the local fallback of spec 000 §10.4: a durable store events are
// appended to (Emit) when the primary sink fails, read back in full before the
// next delivery attempt, and cleared once that attempt succeeds.
type Buffer interface {
	core.Sink
	// ReadAll returns every buffered event, oldest first. An empty or missing
	// store yields no events and no error.
	ReadAll(ctx context.Context) ([]core.Event, error)
	// Clear removes every buffered event.
	Clear(ctx context.Context) error
}
