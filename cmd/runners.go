package skillscmd

import (
	"context"
	"path/filepath"
	"sort"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/exec"
	"github.com/skills-mcp/skills-mcp/runners/wasm"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// wasmExtension is served by the wazero runner; it needs no runner program.
const wasmExtension = ".wasm"

// buildRunners registers one exec runner per configured extension and the
// wazero runner for .wasm. close releases the wasm engine.
func buildRunners(ctx context.Context, cfg core.Config, stateDir string, log hclog.Logger) (reg *core.Registry[core.Runner], close func(), err error) {
	reg = core.NewRegistry[core.Runner]("runner")
	exts := make([]string, 0, len(cfg.Scripts.Runners))
	for ext := range cfg.Scripts.Runners {
		if ext != wasmExtension {
			exts = append(exts, ext)
		}
	}
	sort.Strings(exts)
	for _, ext := range exts {
		r, err := exec.New(cfg.Scripts.Runners[ext], exec.WithLogger(log.Named("exec")))
		if err != nil {
			return nil, nil, usagef("scripts.runners.%s: %v", ext, err)
		}
		reg.Register(ext, r)
	}
	if err := sandbox.ProcessGroups(); err != nil && len(exts) > 0 {
		log.Warn("exec runners degrade", "error", err)
	}
	cacheDir := ""
	if stateDir != "" {
		cacheDir = filepath.Join(stateDir, "wasm-cache")
	}
	engine, err := wasm.NewEngine(ctx, wasm.EngineOptions{
		MemoryLimitPages: uint32(cfg.Wasm.MemoryLimitMB) * 16, // 64 KiB pages
		Mounts:           cfg.Wasm.Mounts,
		CacheDir:         cacheDir,
		Logger:           log.Named("wasm"),
	})
	if err != nil {
		return nil, nil, usagef("wasm: %v", err)
	}
	reg.Register(wasmExtension, wasm.New(engine, wasm.WithLogger(log.Named("wasm")), wasm.WithWritableRoots(cfg.Wasm.CwdRoots)))
	log.Debug("runners registered", "extensions", reg.Names())
	return reg, func() { _ = engine.Close(context.Background()) }, nil
}
