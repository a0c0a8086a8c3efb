package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/skills-mcp/skills-mcp/core"
)

// linesSink appends every event as one JSON line to a file. The server's
// publisher batches events to it and, at shutdown, delivers everything still
// queued before calling Close. It is safe for concurrent use.
type linesSink struct {
	path string
	mu   sync.Mutex
	file *os.File
}

var _ core.Sink = (*linesSink)(nil)

// linesSettings is the lines sink's own section of the operator's settings
// file: plugins.sinks.lines.
type linesSettings struct {
	// File is the file every event is appended to.
	File string `yaml:"file"`
}

// newLinesSink opens (creating) path for appending.
func newLinesSink(path string) (*linesSink, error) {
	if path == "" {
		return nil, errors.New("plugins.sinks.lines.file is not set: name the file the lines sink appends to in the operator's settings file (SKILLS_CONFIG)")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the lines sink file: %w", err)
	}
	return &linesSink{path: path, file: f}, nil
}

// Emit writes the batch in one append, so a batch is never interleaved with
// another's lines.
func (s *linesSink) Emit(ctx context.Context, events []core.Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // one object and a newline per event
	for _, ev := range events {
		if err := enc.Encode(ev); err != nil {
			return fmt.Errorf("encoding a %s event: %w", ev.Type, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return errors.New("lines sink: emit after close")
	}
	if _, err := s.file.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("appending to %s: %w", s.path, err)
	}
	return nil
}

// Close closes the file; a second Close does nothing.
func (s *linesSink) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}
