// Package sandbox owns the confinement that every runner and file reader shares:
// path containment (lexical and through symlinks), the minimal child environment,
// the capped output writer, process-group killing, and the wazero engine with its
// limits. It imports nothing from runners, plugins or the MCP SDK.
package sandbox
