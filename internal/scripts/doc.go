// Package scripts owns running a skill's script: the validation cascade of
// spec 000 §8.4 (Prepare), and the one path every run takes whatever its
// runner (Runs): the bound of runs at once, the scratch directory, the
// script opened through its skills directory's root and pinned (the one
// check that its path still leads to that file), the timeout as ctx's
// deadline, and the output caps. A core.Runner, built-in or a plugin's, only
// executes; what this package applies around it it gets without code of its
// own. run_script (internal/server) and the CLI's `run` both call it.
package scripts
