// Command skills-mcp-wasm runs WebAssembly scripts for skills-mcp, which
// starts it at the first run of a .wasm script and keeps it while runs come
// (internal/wasmproc): each request a JSON line and the module's bytes on
// stdin, each result a JSON line on stdout. It is the only executable that
// links the wazero engine, so a skills-mcp that never runs a module does not
// carry it. Install it next to skills-mcp (make build and make install do).
package main

import (
	"os"

	"github.com/skills-mcp/skills-mcp/runners/wasm"
)

func main() { os.Exit(wasm.Host(os.Stdin, os.Stdout, os.Stderr)) }
