package skillscmd

import (
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// scripts is what running scripts needs, built alike for serve and run: the
// configuration with the operator's script settings applied over the
// content's, the state directory, where runs work, and the runners.
type scripts struct {
	cfg      config.Config
	stateDir string
	work     *confine.WorkDirs
	runners  *core.Registry[core.Runner]
	close    func() // ends the runners (the .wasm helpers)
}

// setupScripts applies, in order, the write roots and run bound
// (scriptPolicy), the confinement (SKILLS_SCRIPTS_SANDBOX and the rest), the
// operator's script and runner settings, then builds the runners.
func setupScripts(a *app, c *content, cf confineFlags) (scripts, error) {
	getenv, log := a.getenv, a.log
	s := scripts{cfg: c.loaded.Config}
	// The content's scripts.max_concurrent lowers the operator's bound
	// (scriptPolicy); the operator's is its variable, else its file's.
	s.cfg.Scripts.MaxConcurrent = c.loaded.Content.Scripts.MaxConcurrent
	cf.fill(&c.loaded)
	var err error
	if s.stateDir, err = stateDirectory(getenv); err != nil {
		return scripts{}, err
	}
	if s.work, err = scriptPolicy(getenv, &s.cfg, c, s.stateDir, log); err != nil {
		return scripts{}, err
	}
	sc, err := newScriptConfinement(cf, c.loaded.InContent("scripts.network"), s.stateDir, log)
	if err != nil {
		return scripts{}, err
	}
	if err := applyOperatorScripts(getenv, &s.cfg, sc, s.work); err != nil {
		return scripts{}, err
	}
	if err := applyOperatorRunners(getenv, c.loaded, &s.cfg, log); err != nil {
		return scripts{}, err
	}
	if s.runners, s.close, err = buildRunners(a, &c.loaded, s.cfg, s.stateDir, sc); err != nil {
		return scripts{}, err
	}
	return s, nil
}
