package core

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"
)

// TimeoutMarker is appended to stderr (on its own line) when a script is killed at its deadline.
const TimeoutMarker = "[skills-mcp] Script killed: timeout exceeded."

// TimeoutExitCode is the exit code reported for a script killed at its deadline.
const TimeoutExitCode = 137

// DefaultMaxConcurrentRuns is the bound of script runs at once, all runners
// together, when the operator sets none: twice the cores, at most 8.
func DefaultMaxConcurrentRuns() int { return min(2*runtime.NumCPU(), 8) }

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
	// OpenScript, when set, opens the script confined to its skills directory
	// at the moment it is called (issue 16, item 1): a runner that reads the
	// script itself reads it from the file it returns, and one that starts it
	// by path calls CheckScript just before starting it. Nil means ScriptPath
	// is used as it is.
	OpenScript func() (*os.File, error)
}

// CheckScript verifies, just before a runner starts req.ScriptPath, that the
// path still leads to the file req.OpenScript opens confined to the skills
// directory (verify after open): a folder swapped for a symlink out of the
// tree since the request was prepared is an error wrapping ErrPathTraversal.
// Without OpenScript it does nothing.
func CheckScript(req RunRequest) error {
	if req.OpenScript == nil {
		return nil
	}
	f, err := req.OpenScript()
	if err != nil {
		return fmt.Errorf("running %s: %w: %w", req.File, ErrPathTraversal, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return fmt.Errorf("running %s: %w", req.File, err)
	}
	if byPath, err := os.Stat(req.ScriptPath); err != nil || !os.SameFile(opened, byPath) {
		return fmt.Errorf("running %s: its path no longer leads to the file inside the skills directory: %w", req.File, ErrPathTraversal)
	}
	return nil
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

// Runner executes one script. Implementations live under runners/ and are
// registered by file extension (".sh", ".wasm") in a Registry[Runner] built in cmd/.
// Run returns an error only when the script could not be started at all (missing
// interpreter, invalid module); a script that runs and fails is a RunResult with a
// non-zero ExitCode.
type Runner interface {
	Run(ctx context.Context, req RunRequest) (RunResult, error)
}
