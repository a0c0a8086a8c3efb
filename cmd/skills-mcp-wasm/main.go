// Command skills-mcp-wasm runs one WebAssembly script for skills-mcp, which
// starts it for each run of a .wasm script (runners/wasmproc): the request as
// JSON on stdin, the module on file descriptor 3, the result as JSON on
// stdout. It is the only executable that links the wazero engine, so a
// skills-mcp that never runs a module does not carry it. Install it next to
// skills-mcp (make build and make install do).
package main

import (
	"os"

	"github.com/skills-mcp/skills-mcp/runners/wasm"
	"github.com/skills-mcp/skills-mcp/runners/wasmproc"
)

func main() {
	// fd 3 is read only when the request says skills-mcp passed the module there.
	os.Exit(wasm.Host(os.Stdin, os.Stdout, os.Stderr, os.NewFile(wasmproc.ModuleFD, "module")))
}
