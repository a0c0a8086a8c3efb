// Package sandbox owns the confinement that every runner and file reader shares:
// path containment (lexical and through symlinks), the minimal child environment,
// the capped output writer and process-group killing. It imports nothing from
// runners, plugins, the MCP SDK or wazero: the wazero engine and its confined
// file systems belong to runners/wasm, so a build without the wasm runner links
// none of it.
package sandbox
