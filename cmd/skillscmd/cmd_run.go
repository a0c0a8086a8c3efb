package skillscmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	scriptrun "github.com/skills-mcp/skills-mcp/internal/scripts"
)

// argFlags collects repeated --arg name=value flags.
type argFlags map[string]string

func (a argFlags) String() string { return "" }

func (a argFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("--arg wants name=value, got %q", v)
	}
	a[name] = value
	return nil
}

// runCmd runs a declared server script through the same cascade, runner
// registry and limits as run_script.
func runCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv, log := a.getenv, a.log
	fs := newFlagSet("run", "run SKILL_PATH FILE [--arg name=value]… [--cwd DIR]",
		"Run a script that SKILL_PATH declares with execution: server, as run_script would.", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	scriptArgs := argFlags{}
	fs.Var(scriptArgs, "arg", "a script argument name=value (repeatable); it reaches the script as SKILL_ARG_NAME")
	cwd := fs.String("cwd", "", "working directory: an absolute directory under $SKILLS_SCRIPTS_WRITE_ROOTS (default: a fresh scratch directory, removed after the run)")
	asJSON := fs.Bool("json", false, "print the run_script result as JSON")
	var cf confineFlags
	cf.register(fs, getenv)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 2 {
		return usagef("run: give SKILL_PATH and FILE, e.g. skills-mcp run ui/react/auth scripts/check.sh --arg client_id=abc")
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	sx, err := setupScripts(a, c, cf)
	if err != nil {
		return err
	}
	defer sx.close()
	cfg, runners, work := sx.cfg, sx.runners, sx.work
	run, err := scriptrun.Prepare(c.snap, cfg.Scripts, runners, work, scriptrun.Args{SkillPath: pos[0], File: pos[1], Args: scriptArgs, Cwd: *cwd})
	if err != nil {
		return err
	}
	res, err := scriptrun.NewRuns(cfg.Scripts.MaxConcurrent, work, log.Named("scripts")).Run(ctx, run)
	if err != nil {
		return fmt.Errorf("running %s: %w", pos[1], err)
	}
	if *asJSON {
		if err := writeJSON(stdout, map[string]any{
			"success": res.ExitCode == 0 && !res.TimedOut, "exit_code": res.ExitCode, "stdout": res.Stdout,
			"stderr": res.Stderr, "duration_ms": res.Duration.Milliseconds(), "script": pos[1],
		}); err != nil {
			return err
		}
	} else {
		fmt.Fprint(stdout, res.Stdout)
		fmt.Fprint(stderr, res.Stderr)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%s exited with code %d", pos[1], res.ExitCode)
	}
	return nil
}
