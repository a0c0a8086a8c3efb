package wasm_test

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/runners/runnertest"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

func TestConformance(t *testing.T) {
	runnertest.Run(t, newRunner(t, wasm.WithMemoryLimitPages(64*16), tempWritable), fixtures{})
}
