package eventbuf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// Deliver implements events.Buffer: holding the delivery turn (path.deliver),
// it moves the appended events to path.sending, calls send with everything
// path.sending holds (each id once), and removes path.sending when send
// returns nil; events appended meanwhile (by another process) are delivered
// in the same turn, up to maxRounds sends. When another process holds the
// turn, Deliver returns false without calling send, at once when ctx has no
// deadline (the periodic flush: the holder delivers the shared events), else
// after waiting for the turn until ctx is done (the final flush at shutdown,
// whose events nobody else might deliver soon). A crash at any point leaves
// every event in one of the two files, or in both with the same id, never in
// neither; the kernel releases the turn.
func (b *Buffer) Deliver(ctx context.Context, send func(context.Context, []core.Event) error) (bool, error) {
	b.turnMu.Lock()
	defer b.turnMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(b.path), 0o700); err != nil {
		return false, fmt.Errorf("creating analytics buffer directory: %w", err)
	}
	unlock, ok, err := b.takeTurn(ctx)
	if err != nil || !ok {
		return false, err
	}
	defer unlock()
	for range maxRounds {
		more, err := b.deliverRound(ctx, send)
		if err != nil || !more {
			return true, err
		}
	}
	return true, nil
}

// maxRounds bounds the sends of one turn, so that a stream of appends cannot
// hold it forever.
const maxRounds = 4

// turnPoll is how often a Deliver that waits for the turn tries again.
const turnPoll = 20 * time.Millisecond

// takeTurn takes path.deliver, waiting for it while ctx has a deadline and
// is not done.
func (b *Buffer) takeTurn(ctx context.Context) (func(), bool, error) {
	for {
		unlock, ok, err := lockFile(b.path+".deliver", true)
		if err != nil || ok {
			return unlock, ok, err
		}
		if _, has := ctx.Deadline(); !has {
			return nil, false, nil
		}
		select {
		case <-ctx.Done():
			return nil, false, nil
		case <-time.After(turnPoll):
		}
	}
}

// deliverRound sends what path.sending holds after moving the appended
// events into it; more reports that events were appended since the move.
func (b *Buffer) deliverRound(ctx context.Context, send func(context.Context, []core.Event) error) (more bool, _ error) {
	if err := b.locked(b.moveToSending); err != nil {
		return false, err
	}
	data, err := os.ReadFile(b.sending)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading analytics buffer: %w", err)
	}
	parsed := parseLines(data)
	if parsed.skipped > 0 {
		b.logger.Warn("analytics buffer: dropped unreadable lines", "path", b.sending, "skipped", parsed.skipped)
	}
	evs := uniqueIDs(parsed.events)
	if len(evs) > 0 {
		if err := send(ctx, evs); err != nil {
			return false, err
		}
	}
	if err := os.Remove(b.sending); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("removing delivered analytics events: %w", err)
	}
	syncDir(filepath.Dir(b.path))
	_, err = os.Stat(b.path)
	return err == nil && len(evs) > 0, nil
}

// moveToSending moves the appended events to the end of path.sending (a rename
// when path.sending does not exist), keeping at most maxBytes of the two
// together, oldest dropped first. The caller holds path.lock and the turn.
func (b *Buffer) moveToSending() error {
	data, err := os.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading analytics buffer: %w", err)
	}
	old, err := os.ReadFile(b.sending)
	if errors.Is(err, fs.ErrNotExist) && int64(len(data)) <= b.maxBytes {
		if err := os.Rename(b.path, b.sending); err != nil {
			return fmt.Errorf("moving analytics buffer: %w", err)
		}
		syncDir(filepath.Dir(b.path))
		return nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading analytics buffer: %w", err)
	}
	all := append(parseLines(old).lines, parseLines(data).lines...)
	kept, dropped := keepNewest(all, b.maxBytes)
	// path.sending is replaced before path is removed: a crash between the two
	// leaves events in both, which Deliver sends once (uniqueIDs).
	if err := b.replaceFile(b.sending, bytes.Join(kept, nil)); err != nil {
		return err
	}
	if err := os.Remove(b.path); err != nil {
		return fmt.Errorf("moving analytics buffer: %w", err)
	}
	syncDir(filepath.Dir(b.path))
	if dropped > 0 {
		b.logger.Warn("analytics buffer full: dropped oldest events", "path", b.path, "dropped", dropped,
			"feedback_dropped", countFeedback(all[:dropped]), "max_bytes", b.maxBytes)
	}
	return nil
}

// uniqueIDs keeps the first event of each id (events without an id, written
// by an older version, are all kept).
func uniqueIDs(evs []core.Event) []core.Event {
	seen := make(map[string]bool, len(evs))
	out := evs[:0:0]
	for _, ev := range evs {
		if ev.ID != "" {
			if seen[ev.ID] {
				continue
			}
			seen[ev.ID] = true
		}
		out = append(out, ev)
	}
	return out
}
