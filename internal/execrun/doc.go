// Package execrun owns the native script runner's implementation: starting
// the interpreter in its own process group, supervising it to its deadline,
// capping its output and, when confined, running it through the launcher
// (confined.go). runners/exec is its public face for custom builds; the
// command (cmd/skillscmd) builds runners here directly, because it alone
// holds the server's table of runs in progress (WithProcesses), a type no
// custom build can make.
package execrun
