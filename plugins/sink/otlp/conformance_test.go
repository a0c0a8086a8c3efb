package otlp_test

import (
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/otlptest"
	"github.com/skills-mcp/skills-mcp/plugins/sink/otlp"
	"github.com/skills-mcp/skills-mcp/plugins/sink/sinktest"
)

func TestConformance(t *testing.T) {
	receivers := map[core.Sink]*otlptest.Receiver{}
	var mu sync.Mutex
	sinktest.Run(t, sinktest.Harness{
		New: func(t *testing.T) core.Sink {
			r := otlptest.Start(t)
			s, err := otlp.New(otlp.Options{Getenv: env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": r.URL})})
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			receivers[s] = r
			mu.Unlock()
			return s
		},
		Delivered: func(t *testing.T, s core.Sink) []core.Event {
			mu.Lock()
			defer mu.Unlock()
			return received(receivers[s])
		},
	})
}
