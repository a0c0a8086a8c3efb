package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode"

	"github.com/skills-mcp/skills-mcp/core"
)

// upperRunner "runs" a .upper script by printing its content upper-cased,
// in the server's own process. It reads the script from the file the core
// opened confined to the skills directory (RunRequest.Script) and streams to
// RunRequest.Stdout. It has no code for timeouts, output caps, the bound of
// runs at once or confinement: the core's wrapper applies them around every
// runner (a write fails once the run's deadline has passed, which ends the
// copy). The server has already walked the whole run_script cascade
// (declared, server execution, allowed extension, file inside the skill)
// before calling it.
type upperRunner struct{}

var _ core.Runner = upperRunner{}

// Run prints the script upper-cased.
func (upperRunner) Run(_ context.Context, req core.RunRequest) (core.RunResult, error) {
	if req.Script == nil || req.Stdout == nil {
		return core.RunResult{}, errors.New("the .upper runner runs the scripts the core opens: no RunRequest.Script or Stdout")
	}
	in, out := bufio.NewReader(req.Script), bufio.NewWriter(req.Stdout)
	for {
		r, _, err := in.ReadRune()
		if err == io.EOF {
			break
		}
		if err != nil {
			return core.RunResult{}, fmt.Errorf("reading %s: %w", req.File, err)
		}
		if _, err := out.WriteRune(unicode.ToUpper(r)); err != nil {
			return core.RunResult{}, fmt.Errorf("printing %s: %w", req.File, err)
		}
	}
	if err := out.Flush(); err != nil {
		return core.RunResult{}, fmt.Errorf("printing %s: %w", req.File, err)
	}
	return core.RunResult{}, nil
}

// awkCommand runs an .awk script as awk's program file; the core's
// launcher appends the script's path.
const awkCommand = "awk -f"

// newAwkRunner runs .awk scripts with awk started through the core's
// launcher (PluginContext.Program): confined as the exec runners' programs
// are, and timed out, capped and reaped the same way.
func newAwkRunner(program func(command string) (core.Runner, error)) (core.Runner, error) {
	if program == nil {
		return nil, errors.New("the .awk runner starts awk through the core's launcher, and none was given")
	}
	return program(awkCommand)
}
