package skillscmd

import (
	"context"

	"github.com/hashicorp/go-hclog"

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
func setupScripts(ctx context.Context, getenv func(string) string, c *content, cf confineFlags, log hclog.Logger) (scripts, error) {
	s := scripts{cfg: c.loaded.Config}
	var err error
	if s.stateDir, err = stateDirectory(getenv); err != nil {
		return scripts{}, err
	}
	if s.work, err = scriptPolicy(getenv, &s.cfg, c, s.stateDir, log); err != nil {
		return scripts{}, err
	}
	sc, err := newScriptConfinement(cf, c.loaded.Origin("scripts.network") != "default", s.stateDir, log)
	if err != nil {
		return scripts{}, err
	}
	if err := applyOperatorScripts(getenv, &s.cfg, sc, s.work); err != nil {
		return scripts{}, err
	}
	if err := applyOperatorRunners(getenv, c.loaded, &s.cfg, log); err != nil {
		return scripts{}, err
	}
	if s.runners, s.close, err = buildRunners(ctx, s.cfg, s.stateDir, sc, log); err != nil {
		return scripts{}, err
	}
	return s, nil
}
