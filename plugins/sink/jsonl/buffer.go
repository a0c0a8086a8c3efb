package jsonl

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
	"github.com/skills-mcp/skills-mcp/core/events"
)

// Name is the sink's name in the sink registry.
const Name = "jsonl"

// DefaultMaxBytes bounds the buffer file when WithMaxBytes is not given.
const DefaultMaxBytes int64 = 10 << 20

// Buffer is a bounded JSONL file of events. It implements core.Sink (Emit
// appends) and events.Buffer, and is safe for concurrent use within a process.
type Buffer struct {
	path     string
	maxBytes int64
	logger   hclog.Logger

	mu sync.Mutex
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
	b := &Buffer{path: path, maxBytes: DefaultMaxBytes, logger: hclog.NewNullLogger()}
	for _, opt := range opts {
		opt(b)
	}
	return b
}

// DefaultPath returns ~/.skills-mcp/analytics-buffer.jsonl for the current user.
func DefaultPath() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("locating the analytics buffer: %w", err)
	}
	return filepath.Join(home, ".skills-mcp", "analytics-buffer.jsonl"), nil
}

// Path returns the file the buffer is stored in.
func (b *Buffer) Path() string { return b.path }

// Emit appends events as whole lines. Events that cannot be encoded as JSON
// are left out with a warning. If the append would make the file exceed its
// bound, the oldest lines are dropped first and a warning counts them. Once
// started, a write is not interrupted by ctx.
func (b *Buffer) Emit(ctx context.Context, evs []core.Event) error {
	if len(evs) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("appending to analytics buffer %s: %w", b.path, err)
	}
	lines := b.encode(evs)
	if len(lines) == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(b.path), 0o700); err != nil {
		return fmt.Errorf("creating analytics buffer directory: %w", err)
	}
	return b.appendLines(lines)
}

// ReadAll returns every event in the file, oldest first. Lines that do not hold
// an event (a torn last line after a crash) are skipped with one warning that
// counts them. A missing file holds no events.
func (b *Buffer) ReadAll(ctx context.Context) ([]core.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading analytics buffer %s: %w", b.path, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	data, err := os.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading analytics buffer: %w", err)
	}
	parsed := parseLines(data)
	if parsed.skipped > 0 {
		b.logger.Warn("analytics buffer: skipped unreadable lines", "path", b.path, "skipped", parsed.skipped)
	}
	return parsed.events, nil
}

// Clear removes the file; a missing file is already clear.
func (b *Buffer) Clear(context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.Remove(b.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clearing analytics buffer: %w", err)
	}
	return nil
}

// Close implements core.Sink; the buffer holds no open file between calls.
func (b *Buffer) Close(context.Context) error { return nil }
