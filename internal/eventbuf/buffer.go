package eventbuf

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/events"
)

// DefaultMaxBytes bounds the buffer file when WithMaxBytes is not given.
const DefaultMaxBytes int64 = 10 << 20

// Buffer is a bounded JSONL file of events. It implements core.Sink (Emit
// appends) and events.Buffer, and is safe for concurrent use, between the
// goroutines of a process and between the processes sharing the file (two
// servers of one user, issue 16 item 2), through two advisory file locks
// beside it:
//
//   - path.lock is held for each short step on the files (an append, the move
//     of the appended events to the sending file, a read, a clear);
//   - path.deliver is the delivery turn, held by one process from the move
//     until the endpoint has answered and the sent events are removed.
//
// Events move from path to path.sending when a delivery starts; only the
// holder of the turn writes path.sending, and it removes the file only after
// a successful delivery of exactly its content.
type Buffer struct {
	path     string
	sending  string
	maxBytes int64
	logger   hclog.Logger

	mu     sync.Mutex // the steps of this process under path.lock
	turnMu sync.Mutex // this process's deliveries, one at a time
}

var (
	_ core.Sink     = (*Buffer)(nil)
	_ events.Buffer = (*Buffer)(nil)
)

// Option configures New.
type Option func(*Buffer)

// WithMaxBytes bounds the file to n bytes; n <= 0 means DefaultMaxBytes.
func WithMaxBytes(n int64) Option {
	return func(b *Buffer) {
		if n > 0 {
			b.maxBytes = n
		}
	}
}

// WithLogger sets the logger for warnings about dropped or unreadable lines;
// nil means no logging.
func WithLogger(logger hclog.Logger) Option {
	return func(b *Buffer) {
		if logger != nil {
			b.logger = logger
		}
	}
}

// New returns a buffer stored at path. Nothing is created until the first Emit.
func New(path string, opts ...Option) *Buffer {
	b := &Buffer{path: path, sending: path + ".sending", maxBytes: DefaultMaxBytes, logger: hclog.NewNullLogger()}
	for _, opt := range opts {
		opt(b)
	}
	return b
}

// Path returns the file the buffer is stored in.
func (b *Buffer) Path() string { return b.path }

// Emit appends events as whole lines and fsyncs the file before it returns.
// Events that cannot be encoded as JSON are left out with a warning. An event
// larger than the whole bound is left out with a warning too: once the
// others are appended, the error wraps core.ErrEventTooLarge (any other error
// means none was stored). If
// the append would make the file exceed its bound, the oldest lines are
// dropped first and a warning counts them (and the feedback among them).
// Once started, a write is not interrupted by ctx.
func (b *Buffer) Emit(ctx context.Context, evs []core.Event) error {
	if len(evs) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("appending to analytics buffer %s: %w", b.path, err)
	}
	lines, tooLarge := b.encode(evs)
	if len(lines) > 0 {
		if err := b.locked(func() error { return b.appendLines(lines) }); err != nil {
			return err
		}
	}
	if tooLarge > 0 {
		return fmt.Errorf("appending to analytics buffer %s: %d of %d events left out, each larger than its bound of %d bytes: %w",
			b.path, tooLarge, len(evs), b.maxBytes, core.ErrEventTooLarge)
	}
	return nil
}

// locked runs fn holding path.lock (and b.mu), creating the directory first.
func (b *Buffer) locked(fn func() error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(b.path), 0o700); err != nil {
		return fmt.Errorf("creating analytics buffer directory: %w", err)
	}
	unlock, _, err := lockFile(b.path+".lock", false)
	if err != nil {
		return fmt.Errorf("analytics buffer: %w", err)
	}
	defer unlock()
	return fn()
}

// ReadAll returns every event not yet delivered (those of a delivery in
// progress or failed, then the appended ones), oldest first. Lines that do not
// hold an event (a torn last line after a crash) are skipped with one warning
// that counts them. Missing files hold no events.
func (b *Buffer) ReadAll(ctx context.Context) ([]core.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading analytics buffer %s: %w", b.path, err)
	}
	var all []core.Event
	err := b.locked(func() error {
		for _, path := range []string{b.sending, b.path} {
			data, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return fmt.Errorf("reading analytics buffer: %w", err)
			}
			parsed := parseLines(data)
			if parsed.skipped > 0 {
				b.logger.Warn("analytics buffer: skipped unreadable lines", "path", path, "skipped", parsed.skipped)
			}
			all = append(all, parsed.events...)
		}
		return nil
	})
	return all, err
}

// Clear removes every stored event (both files); missing files are already clear.
func (b *Buffer) Clear(context.Context) error {
	return b.locked(func() error {
		for _, path := range []string{b.sending, b.path} {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("clearing analytics buffer: %w", err)
			}
		}
		return nil
	})
}

// Close implements core.Sink; the buffer holds no open file between calls.
func (b *Buffer) Close(context.Context) error { return nil }
