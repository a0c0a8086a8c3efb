// Package jsonl is the events-file sink: every event appended as one JSON
// line to a file the operator names (the local buffer format of spec 000
// §10.4, internal/eventbuf), bounded in size, the oldest lines dropped first.
// `skills-mcp eval --events` reads such a file.
package jsonl

import (
	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
)

// Name is the sink's name in the sink registry.
const Name = "jsonl"

// New returns the sink appending to path, keeping the file under maxBytes
// (zero: the buffer's default), logging dropped lines to logger (nil: none).
func New(path string, maxBytes int64, logger hclog.Logger) core.Sink {
	opts := []eventbuf.Option{}
	if maxBytes > 0 {
		opts = append(opts, eventbuf.WithMaxBytes(maxBytes))
	}
	if logger != nil {
		opts = append(opts, eventbuf.WithLogger(logger))
	}
	return eventbuf.New(path, opts...)
}
