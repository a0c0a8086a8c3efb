// Package wasm owns the WebAssembly script runner and the wazero engine under
// it: the engine (Engine, with its compile cache, memory limit and confined
// file systems) and a Runner that executes one already-validated .wasm script
// (a WASI preview 1 command, such as a Go program built with GOOS=wasip1
// GOARCH=wasm) on it and nothing else. It is the only package that links
// wazero, and only the helper executable cmd/skills-mcp-wasm links it: Host is
// that helper's whole work, one run per process (see internal/wasmproc, the
// server's side).
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
// Host builds one engine with NewEngine for its run and wraps it in a Runner;
// other Go programs may do the same in process.
package wasm
