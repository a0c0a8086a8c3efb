package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/telemetry"
	"github.com/skills-mcp/skills-mcp/sandbox"
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
				"(" + sandbox.WriteRootsEnv + "). Leave it out to run in a fresh scratch directory, removed after the run"),
		}, "skill_path", "file"),
		OutputSchema: runScriptOutputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Run script", DestructiveHint: &t},
	}, s.handleRunScript)
}

func (s *Server) handleRunScript(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := checkRemoteRun(req.Extra, s.opts.Config.Scripts); err != nil {
		return domainError(err), nil
	}
	var a RunArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"skill_path", "file", "args", "cwd"}, "skill_path", "file"); err != nil {
		return errorResult("run_script: " + err.Error()), nil
	}
	if a.Args == nil {
		a.Args = map[string]string{}
	}
	run, err := PrepareRun(s.snapshot(), s.opts.Config.Scripts, s.opts.Runners, s.opts.WorkDirs, a)
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
		"exit_code": out.ExitCode, "duration_ms": out.DurationMS, "args_provided": sortedKeys(a.Args),
	})
	return jsonResult(out), nil
}

// RunArgs is a run_script request.
type RunArgs struct {
	SkillPath string            `json:"skill_path"`
	File      string            `json:"file"`
	Args      map[string]string `json:"args"`
	Cwd       string            `json:"cwd"`
}

// PrepareRun walks the validation cascade of spec 000 §8.4 in its order; the
// first failing step answers with an error whose message names the problem.
// Its last step is the working directory, the same rule for every runner
// (issue 26, item 1, stricter than spec 000, which allows any cwd): a cwd must
// lie under work's write roots (work.Dir); without one the request's Dir is
// empty and Runs.Run makes a scratch directory. It returns the run: the
// request, the script's declaration, and the runner registered for the
// script's extension. The CLI's `run` uses it too.
func PrepareRun(snap *index.Snapshot, cfg core.ScriptsConfig, runners *core.Registry[core.Runner], work *sandbox.WorkDirs, a RunArgs) (PreparedRun, error) {
	fail := func(kind error, format string, args ...any) (PreparedRun, error) {
		return PreparedRun{}, &kindError{msg: fmt.Sprintf(format, args...), kind: kind}
	}
	if !cfg.Enabled {
		return fail(core.ErrScriptsDisabled, "Script execution is disabled on this server (scripts.enabled is false in config.yaml).")
	}
	sk, ok := snap.Get(a.SkillPath)
	if !ok {
		return fail(core.ErrSkillNotFound, "Skill not found: %s", a.SkillPath)
	}
	if err := sandbox.CheckRelPath(a.File); err != nil {
		return PreparedRun{}, err
	}
	found, err := snap.FindAsset(sk, a.File)
	if err != nil || !found.IsScript {
		return fail(core.ErrScriptNotDeclared, "Script not declared: %s is not listed under scripts in the frontmatter of %s (or its parents).", a.File, a.SkillPath)
	}
	script := found.Script
	if script.Execution != core.ExecutionServer {
		return fail(core.ErrNotServerScript, "Script %s of skill %s has execution %q, so the server does not run it: fetch it with get_asset and run it yourself (%s).",
			a.File, a.SkillPath, script.Execution, runnerHint(cfg, a.File))
	}
	if slices.Contains(script.Needs, core.NeedNetwork) && cfg.Sandbox != "none" && cfg.Network != "allow" {
		return fail(core.ErrNeedNotGranted, "Script %s of skill %s needs the network (needs: [network]), and this server runs scripts without it "+
			"(SKILLS_SCRIPTS_NETWORK=deny, the default): it was not started. The operator may set SKILLS_SCRIPTS_NETWORK=allow.", a.File, a.SkillPath)
	}
	if missing := missingArgs(script.Args, a.Args); len(missing) > 0 {
		msg := (&core.MissingArgsError{Names: missing}).Error()
		if extra := undeclaredArgs(script.Args, a.Args); len(extra) > 0 { // a typo of a required one, most likely
			msg += fmt.Sprintf("; argument(s) %s not declared (%s)", quoteAll(extra, len(extra)), declaredArgs(script.Args))
		}
		return fail(&core.MissingArgsError{Names: missing}, "Script %s of skill %s: %s.", a.File, a.SkillPath, msg)
	}
	for _, name := range sortedKeys(a.Args) {
		if sandbox.CheckArgName(name) != nil {
			return fail(core.ErrInvalidArgument, "Script %s of skill %s: argument name %q is not allowed (use letters, digits, _ and -).", a.File, a.SkillPath, name)
		}
	}
	if extra := undeclaredArgs(script.Args, a.Args); len(extra) > 0 {
		return fail(core.ErrInvalidArgument, "Script %s of skill %s: argument(s) %s not declared, so the script would never see them; %s.",
			a.File, a.SkillPath, quoteAll(extra, len(extra)), declaredArgs(script.Args))
	}
	ext := strings.ToLower(path.Ext(a.File))
	if !slices.Contains(cfg.AllowedExtensions, ext) {
		return fail(core.ErrExtensionNotAllowed, "Extension not allowed: %q (%s); scripts.allowed_extensions is %s.", ext, a.File, strings.Join(cfg.AllowedExtensions, ", "))
	}
	abs, err := sandbox.Resolve(found.Skill.ResourceDir, a.File)
	if err != nil {
		return PreparedRun{}, err
	}
	// Confined at the moment of use (issue 16, item 1): the script is opened
	// through an os.Root on the skills directory, and the path the runner
	// will start must still lead to that very file, so a folder swapped for a
	// symlink out of the tree since indexing is refused.
	if err := confinedScript(found.Skill, a.File, abs); err != nil {
		if errors.Is(err, core.ErrAssetMissing) {
			return fail(core.ErrAssetMissing, "Script file missing: %s is declared by %s but does not exist on disk.", a.File, found.Skill.Path)
		}
		return PreparedRun{}, err
	}
	runner, err := runners.Lookup(ext)
	if err != nil {
		return fail(core.ErrNoRunner, "No runner configured for %s (%s).", ext, strings.TrimPrefix(err.Error(), "runner "))
	}
	dir := "" // a scratch directory, made by Runs.Run
	if a.Cwd != "" {
		if dir, err = work.Dir(a.Cwd); err != nil {
			return PreparedRun{}, err
		}
	}
	owner, file := found.Skill, a.File
	var readDirs []string // a script inherited from a parent reads the requesting skill's folder too
	if sk.ResourceDir != "" && sk.ResourceDir != found.Skill.ResourceDir {
		readDirs = append(readDirs, sk.ResourceDir)
	}
	req := core.RunRequest{
		ScriptPath: abs, File: a.File, SkillDir: found.Skill.ResourceDir, Dir: dir, Args: a.Args, ReadDirs: readDirs,
		Timeout:        time.Duration(cfg.TimeoutSeconds) * time.Second,
		MaxOutputBytes: cfg.MaxOutputBytes,
		// The runner checks again at the moment it starts or reads the script.
		OpenScript: func() (*os.File, error) { return index.OpenResource(owner, file) },
	}
	return PreparedRun{Request: req, Script: script, Runner: runner}, nil
}

// PreparedRun is a script run that passed the §8.4 cascade.
type PreparedRun struct {
	// Request is what to hand to Runner.
	Request core.RunRequest
	// Script is the script's declaration.
	Script *core.Script
	// Runner is the runner registered for the script's extension.
	Runner core.Runner
}

func missingArgs(declared []core.Arg, given map[string]string) []string {
	var missing []string
	for _, arg := range declared {
		if _, ok := given[arg.Name]; arg.Required && !ok {
			missing = append(missing, arg.Name)
		}
	}
	sort.Strings(missing)
	return missing
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// kindError is a message for people that still answers errors.Is for its
// sentinel, without repeating the sentinel's text.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
