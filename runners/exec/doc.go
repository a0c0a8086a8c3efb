// Package exec owns the native script runner: it executes one already-validated
// script with a configured interpreter command ("bash", "npx tsx", "node",
// "python3") and nothing else. The core (internal/scripts) has checked
// declaration, execution mode, arguments, extension and path, and pinned the
// script, before a Runner is called; the runner still double-checks argument
// names.
//
// Hardening, through internal/launch (whose public face is the sandbox
// package): the program is resolved to an absolute path once, when the runner
// is made at server start, in the absolute directories of PATH only, never in
// a run's working directory; no shell anywhere (the command is split on
// whitespace, arguments reach the script only as SKILL_ARG_* variables), a
// minimal environment (PATH, HOME, LANG, TMPDIR, SKILL_DIR, SKILL_ARG_*), stdin
// closed, stdout and stderr capped by the runner itself at req.MaxOutputBytes
// (as the wrapper of internal/scripts caps every runner's), and a process
// group of its own that is sent SIGTERM then SIGKILL at the deadline and
// SIGKILLed after every run, so no background child outlives the script.
// Built WithConfinement (the server's default on Linux), every script runs
// confined through the launcher: files limited by Landlock to the skill, the
// runners' installations, the system and the run's scratch directory and cwd;
// no network; bounded processes and memory (internal/execrun, confined.go).
//
// One Runner serves one extension: cmd/skillscmd makes one for each
// scripts.runners extension that no runner plugin claims and registers it by
// extension in a core.Registry[core.Runner]; every run reaches it through
// internal/scripts' wrapper (the run's bound, scratch directory, timeout as
// ctx's deadline, output caps).
package exec
