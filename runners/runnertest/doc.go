// Package runnertest owns the conformance suite every core.Runner passes, in the
// manner of go-cloud's drivertest: a runner package supplies Fixtures (scripts
// in its own language for each Behaviour) and calls Run from a test.
//
// The suite checks what spec 000 §8.4 and §12.2 promise of any runner:
// arguments arrive as SKILL_ARG_* variables and are never interpreted by a
// shell; exit codes and stderr are captured; a timeout kills the script with
// exit code 137, keeps partial output and appends core.TimeoutMarker; stdout
// and stderr are each capped with sandbox.TruncationNote appended; stdin is
// empty; and the environment holds SKILL_DIR and the arguments but nothing
// inherited from the server (tokens, secrets).
//
// Two narrower checks serve runners the whole suite does not fit: Runaway,
// that the core's wrapper (internal/scripts) bounds a runner with no timeout
// or cap code of its own, and Confined, that a runner starting programs
// through the core's launcher has them confined.
package runnertest
