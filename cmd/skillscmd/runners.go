package skillscmd

import (
	"context"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/execrun"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// closer is a runner that holds resources until shutdown (the wasm engine).
type closer interface{ Close(context.Context) error }

// buildRunners registers one exec runner per configured extension that no
// runner plugin claims, then every runner plugin of the running Command (the
// wasm runner among them). close releases what the runners hold.
//
// Exec runners run their scripts confined by sc unless the operator chose
// none (sc nil or unconfined).
func buildRunners(a *app, loaded *config.Loaded, cfg config.Config, stateDir string, sc *scriptConfinement) (reg *core.Registry[core.Runner], close func(), err error) {
	log := a.log
	plugins := a.cmd.runners
	reg = core.NewRegistry[core.Runner]("runner")
	exts := make([]string, 0, len(cfg.Scripts.Runners))
	for ext := range cfg.Scripts.Runners {
		if !a.cmd.hasRunner(ext) {
			exts = append(exts, ext)
		}
	}
	sort.Strings(exts)
	program := func(command string) (core.Runner, error) {
		opts := []execrun.Option{execrun.WithLogger(log.Named("exec")), execrun.WithCancelGrace(scriptStopGrace),
			execrun.WithProcesses(a.procs)}
		if sc != nil {
			opts = append(opts, execrun.WithPassEnv(sc.passEnv))
		}
		if sc.confined() {
			opts = append(opts, execrun.WithConfinement(sc.conf))
		}
		return execrun.New(command, opts...)
	}
	for _, ext := range exts {
		r, err := program(cfg.Scripts.Runners[ext])
		if err != nil {
			return nil, nil, usagef("scripts.runners.%s: %w", ext, err)
		}
		reg.Register(ext, r)
	}
	if err := launch.ProcessGroups(); err != nil && len(exts) > 0 {
		log.Warn("exec runners degrade", "error", err)
	}
	var closers []closer
	close = func() {
		for _, c := range closers {
			if err := c.Close(context.Background()); err != nil {
				log.Warn("closing a runner", "error", err)
			}
		}
	}
	for _, ext := range plugins.Names() {
		p, _ := plugins.Lookup(ext)
		pc := pluginContext(loaded, runnersSection+"."+ext, log.Named(strings.TrimPrefix(ext, ".")), stateDir, a.getenv)
		pc.cfg, pc.Program, pc.procs = &cfg, program, a.procs
		r, err := p.New(pc)
		if err != nil {
			close()
			return nil, nil, usagef("runner %s: %w", ext, err)
		}
		if c, ok := r.(closer); ok {
			closers = append(closers, c)
		}
		reg.Register(ext, r)
	}
	log.Debug("runners registered", "extensions", reg.Names())
	return reg, close, nil
}
