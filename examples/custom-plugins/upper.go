package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// upperRunner "runs" a .upper script by printing its content upper-cased. The
// server has already walked the whole run_script cascade (declared, server
// execution, allowed extension, file inside the skill) before calling it.
type upperRunner struct{}

var _ core.Runner = upperRunner{}

// Run prints the script file upper-cased, cut at req.MaxOutputBytes.
func (upperRunner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	data, err := os.ReadFile(req.ScriptPath)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("reading %s: %w", req.File, err)
	}
	res := core.RunResult{Stdout: strings.ToUpper(string(data))}
	if req.MaxOutputBytes > 0 && int64(len(res.Stdout)) > req.MaxOutputBytes {
		res.Stdout, res.StdoutTruncated = res.Stdout[:req.MaxOutputBytes], true
	}
	res.Duration = time.Since(start)
	return res, nil
}
