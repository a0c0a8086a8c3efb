// Package wasmproc runs .wasm scripts in a child process, skills-mcp-wasm,
// that hosts the wazero engine (runners/wasm), so that the server does not
// link wazero: a server whose skills never run a WebAssembly module does not
// carry its code, its package initialisation nor its pages (issue 19), and a
// module that crashes the engine takes down one child, not the server.
//
// Runner is the server's side: a core.Runner that starts the helper for each
// run, hands it the request as JSON on its stdin and the module, opened
// confined to the skills directory, as its file descriptor 3, and reads the
// result as JSON from its stdout. runners/wasm.Host is the helper's side.
// The helper is found next to the running executable, else on PATH.
package wasmproc
