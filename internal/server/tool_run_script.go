package server

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

type runScriptResult struct {
	Success    bool   `json:"success"`
	ExitCode   int    `json:"exit_code"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	DurationMS int64  `json:"duration_ms"`
	Script     string `json:"script"`
}

func (s *Server) addRunScript() {
	t := true
	s.mcp.AddTool(&mcp.Tool{
		Name: "run_script",
		Description: "Run a script that a skill declares with execution \"server\". Arguments reach the script as " +
			"SKILL_ARG_{NAME} environment variables; the result has the exit code, stdout and stderr.",
		InputSchema: schema(map[string]any{
			"skill_path": strProp("Skill path"),
			"file":       strProp("Script path relative to the skill's resource directory, e.g. \"scripts/check.sh\""),
			"args": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
				"description": "Named arguments (strings) the script declares; leave out when it takes none"},
			"cwd": strProp("Optional working directory: an absolute directory under the server's write roots " +
				"(" + confine.WriteRootsEnv + "). Leave it out to run in a fresh scratch directory, removed after the run"),
		}, "skill_path", "file"),
		OutputSchema: runScriptOutputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Run script", DestructiveHint: &t},
	}, s.handleRunScript)
}

func (s *Server) handleRunScript(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := checkRemoteRun(req.Extra, s.opts.Config.Scripts); err != nil {
		return domainError(err), nil
	}
	var a scripts.Args
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"skill_path", "file", "args", "cwd"}, "skill_path", "file"); err != nil {
		return errorResult("run_script: " + err.Error()), nil
	}
	if a.Args == nil {
		a.Args = map[string]string{}
	}
	run, err := scripts.Prepare(s.snapshot(), s.opts.Config.Scripts, s.opts.Runners, s.opts.WorkDirs, a)
	if err != nil {
		return domainError(err), nil
	}
	ctx, span := telemetry.Start(ctx, telemetry.SpanScriptRun)
	res, err := s.runs.Run(ctx, run)
	if span.IsRecording() {
		span.SetAttributes(telemetry.AttrSkillPath.String(a.SkillPath), telemetry.AttrScriptFile.String(a.File), telemetry.AttrExitCode.Int(res.ExitCode))
	}
	telemetry.End(span, err)
	if err != nil {
		return domainError(fmt.Errorf("running %s of skill %s: %w", a.File, a.SkillPath, err)), nil
	}
	out := runScriptResult{
		Success: res.ExitCode == 0 && !res.TimedOut, ExitCode: res.ExitCode, Stdout: res.Stdout, Stderr: res.Stderr,
		DurationMS: res.Duration.Milliseconds(), Script: a.File,
	}
	s.opts.Tracker.Track(core.EventScriptExecuted, map[string]any{
		"skill_path": a.SkillPath, "file": a.File, "execution_mode": run.Script.Execution, "success": out.Success,
		"exit_code": out.ExitCode, "duration_ms": out.DurationMS, "args_provided": slices.Sorted(maps.Keys(a.Args)),
	})
	return jsonResult(out), nil
}

// kindError is a message for people that still answers errors.Is for its
// sentinel, without repeating the sentinel's text.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
