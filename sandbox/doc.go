// Package sandbox owns the confinement that every runner and file reader shares:
// path containment (lexical and through symlinks), the minimal child environment,
// the capped output writer, process-group killing, where runs work (write roots,
// scratch directories) and the confinement of native script processes
// (Confinement: a launcher, this package's init in any binary that links it,
// that enters the run's user and network namespaces, sets resource limits and
// no_new_privs and restricts itself with Landlock before executing the
// runner). It imports nothing from
// runners, plugins, the MCP SDK or wazero: the wazero engine and its confined
// file systems belong to runners/wasm, so a build without the wasm runner links
// none of it.
package sandbox
