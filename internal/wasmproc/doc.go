// Package wasmproc runs .wasm scripts in a child process, skills-mcp-wasm,
// that hosts the wazero engine (runners/wasm), so that the server does not
// link wazero: a server whose skills never run a WebAssembly module does not
// carry its code, its package initialisation nor its pages (issue 19), and a
// module that crashes the engine takes down one child, not the server.
//
// Runner is the server's side: a core.Runner that starts the helper at the
// first run and keeps it while runs come (one helper per concurrent run, at
// most Options.MaxIdle of them kept between runs, an idle one ended after
// IdleTimeout), so its engine keeps the compiled modules in memory. How many
// run at once is the server's bound on script runs, which every runner
// shares (issue 26, item 7). Each run is a JSON line on the helper's stdin followed
// by the module's bytes, which the server reads as RunRequest.Script (confined
// to the skills directory), and a JSON line back on its stdout.
// runners/wasm.Host is the helper's side. The helper is found next to the
// running executable, else on PATH.
package wasmproc
