package wasm_test

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/runners/runnertest"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

func TestConformance(t *testing.T) {
	runnertest.Run(t, wasm.New(newEngine(t, sandbox.WasmOptions{MemoryLimitPages: 64 * 16}), tempWritable), fixtures{})
}
