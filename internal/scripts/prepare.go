package scripts

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// Args is one run request: run_script's arguments.
type Args struct {
	SkillPath string            `json:"skill_path"`
	File      string            `json:"file"`
	Args      map[string]string `json:"args"`
	Cwd       string            `json:"cwd"`
}

// Prepare walks the validation cascade of spec 000 §8.4 in its order; the
// first failing step answers with an error whose message names the problem.
// Its last step is the working directory, the same rule for every runner
// (issue 26, item 1, stricter than spec 000, which allows any cwd): a cwd must
// lie under work's write roots (work.Dir); without one the request's Dir is
// empty and Runs.Run makes a scratch directory. It returns the run: the
// request, the script's declaration, the runner registered for the
// script's extension, and the script opened through its skills directory's
// root, which Runs.Run hands to the runner and closes: a prepared run is
// always run (on an error Prepare has closed what it opened). run_script and
// the CLI's `run` both use it.
func Prepare(snap *index.Snapshot, cfg config.ScriptsConfig, runners *core.Registry[core.Runner], work *confine.WorkDirs, a Args) (Prepared, error) {
	fail := func(kind error, format string, args ...any) (Prepared, error) {
		return Prepared{}, &kindError{msg: fmt.Sprintf(format, args...), kind: kind}
	}
	if !cfg.Enabled {
		return fail(core.ErrScriptsDisabled, "Script execution is disabled on this server (scripts.enabled is false in config.yaml).")
	}
	sk, ok := snap.Get(a.SkillPath)
	if !ok {
		return fail(core.ErrSkillNotFound, "Skill not found: %s", a.SkillPath)
	}
	if err := confine.CheckRelPath(a.File); err != nil {
		return Prepared{}, err
	}
	found, err := snap.FindAsset(sk, a.File)
	if err != nil || !found.IsScript {
		return fail(core.ErrScriptNotDeclared, "Script not declared: %s is not listed under scripts in the frontmatter of %s (or its parents).", a.File, a.SkillPath)
	}
	decl := found.Script
	if decl.Execution != core.ExecutionServer {
		return fail(core.ErrNotServerScript, "Script %s of skill %s has execution %q, so the server does not run it: fetch it with get_asset and run it yourself (%s).",
			a.File, a.SkillPath, decl.Execution, runnerHint(cfg, a.File))
	}
	if slices.Contains(decl.Needs, core.NeedNetwork) && cfg.Sandbox != "none" && cfg.Network != "allow" {
		return fail(core.ErrNeedNotGranted, "Script %s of skill %s needs the network (needs: [network]), and this server runs scripts without it "+
			"(SKILLS_SCRIPTS_NETWORK=deny, the default): it was not started. The operator may set SKILLS_SCRIPTS_NETWORK=allow.", a.File, a.SkillPath)
	}
	if missing := missingArgs(decl.Args, a.Args); len(missing) > 0 {
		msg := (&core.MissingArgsError{Names: missing}).Error()
		if extra := undeclaredArgs(decl.Args, a.Args); len(extra) > 0 { // a typo of a required one, most likely
			msg += fmt.Sprintf("; argument(s) %s not declared (%s)", quoted(extra), declaredArgs(decl.Args))
		}
		return fail(&core.MissingArgsError{Names: missing}, "Script %s of skill %s: %s.", a.File, a.SkillPath, msg)
	}
	for _, name := range sortedKeys(a.Args) {
		if launch.CheckArgName(name) != nil {
			return fail(core.ErrInvalidArgument, "Script %s of skill %s: argument name %q is not allowed (use letters, digits, _ and -).", a.File, a.SkillPath, name)
		}
	}
	if extra := undeclaredArgs(decl.Args, a.Args); len(extra) > 0 {
		return fail(core.ErrInvalidArgument, "Script %s of skill %s: argument(s) %s not declared, so the script would never see them; %s.",
			a.File, a.SkillPath, quoted(extra), declaredArgs(decl.Args))
	}
	ext := strings.ToLower(path.Ext(a.File))
	if !slices.Contains(cfg.AllowedExtensions, ext) {
		return fail(core.ErrExtensionNotAllowed, "Extension not allowed: %q (%s); scripts.allowed_extensions is %s.", ext, a.File, strings.Join(cfg.AllowedExtensions, ", "))
	}
	abs, err := confine.Resolve(found.Skill.ResourceDir, a.File)
	if err != nil {
		return Prepared{}, err
	}
	// Confined at the moment of use (issue 16, item 1): the script is
	// opened through the root handle of its skills directory and held;
	// Runs.Run checks, just before the runner starts, that the path still
	// leads to this very file.
	script, err := openScript(snap, found.Skill, a.File)
	if err != nil {
		if errors.Is(err, core.ErrAssetMissing) {
			return fail(core.ErrAssetMissing, "Script file missing: %s is declared by %s but does not exist on disk.", a.File, found.Skill.Path)
		}
		return Prepared{}, err
	}
	keep := false
	defer func() {
		if !keep {
			_ = script.Close()
		}
	}()
	runner, err := runners.Lookup(ext)
	if err != nil {
		return fail(core.ErrNoRunner, "No runner configured for %s (%s).", ext, strings.TrimPrefix(err.Error(), "runner "))
	}
	dir := "" // a scratch directory, made by Runs.Run
	if a.Cwd != "" {
		if dir, err = work.Dir(a.Cwd); err != nil {
			return Prepared{}, err
		}
	}
	var readDirs []string // a script inherited from a parent reads the requesting skill's folder too
	if sk.ResourceDir != "" && sk.ResourceDir != found.Skill.ResourceDir {
		readDirs = append(readDirs, sk.ResourceDir)
	}
	req := core.RunRequest{
		ScriptPath: abs, File: a.File, SkillDir: found.Skill.ResourceDir, Dir: dir, Args: a.Args, ReadDirs: readDirs,
		Timeout:        time.Duration(cfg.TimeoutSeconds) * time.Second,
		MaxOutputBytes: cfg.MaxOutputBytes,
	}
	keep = true
	return Prepared{Request: req, Script: decl, Runner: runner, file: script}, nil
}

// Prepared is a script run that passed the §8.4 cascade.
type Prepared struct {
	// Request is what to hand to Runner.
	Request core.RunRequest
	// Script is the script's declaration.
	Script *core.Script
	// Runner is the runner registered for the script's extension.
	Runner core.Runner
	// file is the script, opened confined and held until Runs.Run has
	// run it and closed it.
	file *os.File
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
