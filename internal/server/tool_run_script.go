package server

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// runScriptResult is run_script's answer (spec 000 §8.4), its output schema.
type runScriptResult struct {
	Success    bool   `json:"success" jsonschema:"Whether the script exited with 0 in time"`
	ExitCode   int    `json:"exit_code" jsonschema:"The script's exit code (137 when killed at the timeout)"`
	Stdout     string `json:"stdout" jsonschema:"What the script wrote to stdout, cut at scripts.max_output_bytes"`
	Stderr     string `json:"stderr" jsonschema:"What the script wrote to stderr, cut at scripts.max_output_bytes"`
	DurationMS int64  `json:"duration_ms" jsonschema:"How long the script ran, in milliseconds"`
	Script     string `json:"script" jsonschema:"The script file that ran"`
}

func (s *Server) addRunScript() {
	t := true
	addTool(s, &mcp.Tool{
		Name: "run_script",
		Description: "Run a script that a skill declares with execution \"server\". Arguments reach the script as " +
			"SKILL_ARG_{NAME} environment variables; the result has the exit code, stdout and stderr.",
		InputSchema: inputSchema[runScriptArgs](func(props map[string]*jsonschema.Schema) {
			props["cwd"].Description = "Optional working directory: an absolute directory under the server's write roots " +
				"(" + confine.WriteRootsEnv + "). Leave it out to run in a fresh scratch directory, removed after the run"
		}),
		Annotations: &mcp.ToolAnnotations{Title: "Run script", DestructiveHint: &t},
	}, s.handleRunScript)
}

func (s *Server) handleRunScript(ctx context.Context, req *mcp.CallToolRequest, in runScriptArgs) (*mcp.CallToolResult, runScriptResult, error) {
	if err := checkRemoteRun(req.Extra, s.opts.Config.Scripts); err != nil {
		return nil, runScriptResult{}, domainError(err)
	}
	a := scripts.Args(in)
	if a.Args == nil {
		a.Args = map[string]string{}
	}
	run, err := scripts.Prepare(s.snapshot(), s.opts.Config.Scripts, s.opts.Runners, s.opts.WorkDirs, a)
	if err != nil {
		return nil, runScriptResult{}, domainError(err)
	}
	ctx, span := telemetry.Start(ctx, telemetry.SpanScriptRun)
	res, err := s.runs.Run(ctx, run)
	if span.IsRecording() {
		span.SetAttributes(telemetry.AttrSkillPath.String(a.SkillPath), telemetry.AttrScriptFile.String(a.File), telemetry.AttrExitCode.Int(res.ExitCode))
	}
	telemetry.End(span, err)
	if err != nil {
		return nil, runScriptResult{}, domainError(fmt.Errorf("running %s of skill %s: %w", a.File, a.SkillPath, err))
	}
	out := runScriptResult{
		Success: res.ExitCode == 0 && !res.TimedOut, ExitCode: res.ExitCode, Stdout: res.Stdout, Stderr: res.Stderr,
		DurationMS: res.Duration.Milliseconds(), Script: a.File,
	}
	s.opts.Tracker.Track(core.EventScriptExecuted, map[string]any{
		"skill_path": a.SkillPath, "file": a.File, "execution_mode": run.Script.Execution, "success": out.Success,
		"exit_code": out.ExitCode, "duration_ms": out.DurationMS, "args_provided": slices.Sorted(maps.Keys(a.Args)),
	})
	text, err := compactResult(out)
	return text, out, err
}

// runScriptArgs are run_script's arguments; its tags give the input schema.
// They are a scripts.Args.
type runScriptArgs struct {
	SkillPath string            `json:"skill_path" jsonschema:"Skill path"`
	File      string            `json:"file" jsonschema:"Script path relative to the skill's resource directory, e.g. \"scripts/check.sh\""`
	Args      map[string]string `json:"args,omitempty" jsonschema:"Named arguments (strings) the script declares; leave out when it takes none"`
	Cwd       string            `json:"cwd,omitempty" jsonschema:"Optional working directory"`
}

// kindError is a message for people that still answers errors.Is for its
// sentinel, without repeating the sentinel's text.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
