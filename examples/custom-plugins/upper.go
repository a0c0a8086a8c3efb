package main

import (
	"context"
	"fmt"

	"github.com/skills-mcp/skills-mcp/core"
)

// upperCommand prints a file upper-cased: awk's program is one word, so
// the command splits into program and arguments as scripts.runners do.
const upperCommand = "awk {print(toupper($0))}"

// upperRunner "runs" a .upper script by printing its content upper-cased,
// with awk started through the core's launcher (PluginContext.Program): the
// program is confined as the exec runners' are, and timed out, capped and
// reaped the same way. The server has already walked the whole run_script
// cascade (declared, server execution, allowed extension, file inside the
// skill) before calling it.
type upperRunner struct{ awk core.Runner }

var _ core.Runner = upperRunner{}

// newUpperRunner makes the runner with program, the core's way to start a
// program (PluginContext.Program).
func newUpperRunner(program func(command string) (core.Runner, error)) (core.Runner, error) {
	if program == nil {
		return nil, fmt.Errorf("the .upper runner starts awk through the core's launcher, and none was given")
	}
	awk, err := program(upperCommand)
	if err != nil {
		return nil, err
	}
	return upperRunner{awk: awk}, nil
}

// Run prints the script file upper-cased, cut at req.MaxOutputBytes.
func (u upperRunner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	return u.awk.Run(ctx, req)
}
