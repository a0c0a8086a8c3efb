// Package launch owns how the server starts and ends script processes: the
// minimal child environment and the script arguments in it (MinimalEnv,
// ArgEnv), process groups (StartInGroup, TerminateGroup, KillGroup), run
// markers and the table of runs and helpers in progress (Processes: what
// KillOrphans and ReapZombies spare once the command made the server a
// subreaper), and the confinement of native script processes (Confinement:
// a launcher, this package's init in any binary that links it, that enters
// the run's user and network namespaces, sets resource limits and
// no_new_privs and restricts itself with Landlock before executing the
// runner's program). Package sandbox is its public face for runner authors.
// It imports nothing from runners, plugins, the MCP SDK or wazero.
package launch
