package core

import (
	"context"
	"io"
	"os"
	"time"
)

// TimeoutMarker is appended to stderr (on its own line) when a script is killed at its deadline.
const TimeoutMarker = "[skills-mcp] Script killed: timeout exceeded."

// TimeoutExitCode is the exit code reported for a script killed at its deadline.
const TimeoutExitCode = 137

// RunRequest is one validated script execution. The core has already checked the
// whole cascade of spec 000 §8.4; a Runner only executes.
type RunRequest struct {
	// ScriptPath is the absolute path of the script file, inside SkillDir.
	ScriptPath string
	// File is the script path as declared (relative to SkillDir), for messages.
	File string
	// SkillDir is the absolute resource directory of the skill (exported to the script as SKILL_DIR).
	SkillDir string
	// Dir is the absolute working directory; it exists.
	Dir string
	// Scratch is the run's own fresh directory (absolute, existing, removed
	// after the run), where a confined script's HOME and TMPDIR point; it is
	// Dir when the run was given no cwd. Empty means the runner makes one
	// if it needs one.
	Scratch string
	// ReadDirs are other directories the script may read besides SkillDir:
	// the folders of the skill that runs a script it inherits.
	ReadDirs []string
	// Args are the named arguments; names match [A-Za-z0-9_-]+. They reach the
	// script as SKILL_ARG_{UPPERCASE_NAME} environment variables, never as argv.
	Args map[string]string
	// Timeout is the wall-clock limit; zero means no limit beyond ctx.
	Timeout time.Duration
	// MaxOutputBytes caps stdout and stderr each; zero means no cap.
	MaxOutputBytes int64
	// Script is the script file, opened by the core through its skills
	// directory's root handle and pinned there before the run: a runner that
	// reads the script (an in-process one, one that sends it elsewhere)
	// reads it from here, never by ScriptPath, which an interpreter still
	// gets for $0, __file__ and sibling imports. The core has checked, just
	// before calling Run, that ScriptPath still leads to this file; no runner
	// checks again. The core closes it once Run has returned. Nil only when
	// a runner is called outside the core (its own tests).
	Script *os.File
	// Stdout and Stderr are where a runner may stream its script's output
	// (an in-process runner does): the core keeps the first MaxOutputBytes
	// of each, drops the rest without failing the write, and fails every
	// write once the run's deadline has passed, with an error wrapping
	// context.DeadlineExceeded. What a runner writes here comes first in
	// the result, before the RunResult streams it returns. Nil only when a
	// runner is called outside the core.
	Stdout, Stderr io.Writer
}

// RunResult is what a script did.
type RunResult struct {
	// ExitCode is the process exit code; TimeoutExitCode when killed at the deadline.
	ExitCode int
	// Stdout is the captured standard output, cut at MaxOutputBytes.
	Stdout string
	// Stderr is the captured standard error, cut at MaxOutputBytes, with the
	// truncation note and TimeoutMarker appended when they apply.
	Stderr string
	// Duration is the wall-clock run time.
	Duration time.Duration
	// TimedOut reports a kill at the deadline.
	TimedOut bool
	// StdoutTruncated and StderrTruncated report that the cap cut the stream.
	StdoutTruncated, StderrTruncated bool
	// Confinement names what confined the script's process ("landlock-abi7,
	// userns, netns, rlimits"), "" when nothing did (an in-process runner, a
	// native runner the operator left unconfined).
	Confinement string
}

// Runner executes one script. Implementations (the exec runner of
// runners/exec, the .wasm runner of internal/wasmproc over runners/wasm, a
// custom build's own) are registered by file extension (".sh", ".wasm") in a
// Registry[Runner] built in cmd/skillscmd.
// The core calls every runner through one wrapper (internal/scripts) that
// applies the run's timeout (ctx's deadline), the output caps, the bound of
// runs at once and the script's confinement, so a runner needs no code of its
// own for them: one that returns an error once ctx's deadline has passed
// (or whose writes to RunRequest.Stdout fail then) gets a timed-out result.
// Run returns an error only when the script could not be started at all (missing
// interpreter, invalid module); a script that runs and fails is a RunResult with a
// non-zero ExitCode.
type Runner interface {
	Run(ctx context.Context, req RunRequest) (RunResult, error)
}
