package jsonl_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/sink/jsonl"
	"github.com/skills-mcp/skills-mcp/plugins/sink/sinktest"
)

func TestConformance(t *testing.T) {
	sinktest.Run(t, sinktest.Harness{
		New: func(t *testing.T) core.Sink {
			return jsonl.New(filepath.Join(t.TempDir(), "events.jsonl"), 64<<20, nil)
		},
		Delivered: func(t *testing.T, s core.Sink) []core.Event {
			evs, err := s.(interface {
				ReadAll(context.Context) ([]core.Event, error)
			}).ReadAll(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return evs
		},
	})
}
