// Package wasm owns the WebAssembly script runner: a Runner that executes one
// already-validated .wasm script (a WASI preview 1 command, such as a Go
// program built with GOOS=wasip1 GOARCH=wasm) and nothing else, on a wazero
// engine of its own (internal/engine: the compile cache, the memory limit,
// the confined file systems), configured by its options. It is the only
// package that links wazero, and only the helper executable
// cmd/skills-mcp-wasm links it: Host is that helper's whole work (see
// internal/wasmproc, the server's side).
//
// The guest gets its script file name as argv[0], an environment of exactly
// SKILL_DIR=/skill and its SKILL_ARG_* arguments, an empty stdin, stdout and
// stderr capped at the request's max output bytes, the skill's resource
// directory read-only at /skill, the working directory read-write at /cwd (when
// it is not the skill directory; it is then the guest's working directory), and
// any configured read-only mounts. It has no network and no host environment;
// every mount is confined (symlinks cannot leave it, and the guest cannot create
// any). Its linear memory is capped by the engine, and the request's timeout
// stops it even while it sleeps.
//
// Host makes one Runner at its first request and keeps it, with its compiled
// modules, for the next; other Go programs may run modules in process the
// same way (New, Run, Close).
package wasm
