package launch

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// CheckRequest double-checks what the core validated, so a bad request fails
// clearly instead of running the wrong thing: the script and skill paths must be
// absolute.
func CheckRequest(req core.RunRequest) error {
	if req.ScriptPath == "" || !filepath.IsAbs(req.ScriptPath) {
		return fmt.Errorf("running %s: script path %q is not absolute: %w", req.File, req.ScriptPath, core.ErrInvalidArgument)
	}
	if req.SkillDir == "" || !filepath.IsAbs(req.SkillDir) {
		return fmt.Errorf("running %s: skill dir %q is not absolute: %w", req.File, req.SkillDir, core.ErrInvalidArgument)
	}
	return nil
}

// Captured is what a capped stream kept: a sandbox.CappedWriter.
type Captured interface {
	String() string
	Truncated() bool
}

// TruncationNote is appended to a stream the cap cut, on its own line
// (sandbox.TruncationNote).
const TruncationNote = "[skills-mcp] Output truncated at max_output_bytes."

// CapturedResult is the result every runner reports for the captured streams:
// what the caps kept, with TruncationNote appended on its own line to a stream
// that was cut.
func CapturedResult(exitCode int, stdout, stderr Captured, duration time.Duration) core.RunResult {
	res := core.RunResult{
		ExitCode:        exitCode,
		Stdout:          stdout.String(),
		Stderr:          stderr.String(),
		Duration:        duration,
		StdoutTruncated: stdout.Truncated(),
		StderrTruncated: stderr.Truncated(),
	}
	if res.StdoutTruncated {
		res.Stdout = AppendLine(res.Stdout, TruncationNote)
	}
	if res.StderrTruncated {
		res.Stderr = AppendLine(res.Stderr, TruncationNote)
	}
	return res
}

// AppendLine appends line to s on a line of its own (adding a newline only
// when s does not already end with one), without a trailing newline.
func AppendLine(s, line string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s + line
	}
	return s + "\n" + line
}
