package wasm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/runners/wasm/internal/engine"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

var _ core.Runner = (*Runner)(nil)

// Runner runs .wasm scripts on its own wazero engine, made at the first
// run. It is immutable after New and safe for concurrent use; Close
// releases the engine.
type Runner struct {
	engine        *engine.Engine
	engineOpts    engine.Options
	logger        hclog.Logger
	writableRoots []string
}

// Option configures a Runner.
type Option func(*Runner)

// WithLogger sets where the runner logs (stderr only); nil means no logging.
func WithLogger(l hclog.Logger) Option {
	return func(r *Runner) {
		if l != nil {
			r.logger = l
		}
	}
}

// WithMemoryLimitPages caps each module's linear memory, in 64 KiB pages
// (MiB × 16, config wasm.memory_limit_mb). Without it, or with 0, a module
// may grow to 65536 pages, the 4 GiB maximum of wasm32.
func WithMemoryLimitPages(pages uint32) Option {
	return func(r *Runner) { r.engineOpts.MemoryLimitPages = pages }
}

// WithCacheDir keeps compiled modules on disk in dir across restarts.
// Without it, or when dir cannot be written, the cache is in memory only.
func WithCacheDir(dir string) Option {
	return func(r *Runner) { r.engineOpts.CacheDir = dir }
}

// WithMounts adds read-only host directories: guest path (absolute, e.g.
// "/data") → host directory (config wasm.mounts). A guest path may not be
// "/" nor clash with /skill or /cwd; New checks them.
func WithMounts(mounts map[string]string) Option {
	return func(r *Runner) { r.engineOpts.Mounts = maps.Clone(mounts) }
}

// WithWritableRoots lists the host directories under which a run's working
// directory may be mounted read-write at /cwd (config wasm.cwd_roots). A cwd
// anywhere else is refused: the caller of run_script chooses cwd, and a
// writable "/" would undo the sandbox.
func WithWritableRoots(dirs []string) Option {
	return func(r *Runner) { r.writableRoots = append([]string(nil), dirs...) }
}

// New returns a runner with opts. It checks the mounts (an invalid one is
// an error here, not at the first run); the wazero runtime under it is made
// when the first module runs, so a server that never runs one never pays
// for it.
func New(opts ...Option) (*Runner, error) {
	r := &Runner{logger: hclog.NewNullLogger()}
	for _, opt := range opts {
		opt(r)
	}
	r.engineOpts.Logger = r.logger
	e, err := engine.New(context.Background(), r.engineOpts)
	if err != nil {
		return nil, err
	}
	r.engine = e
	return r, nil
}

// Close releases the runner's engine: its runtime and compiled modules. A
// run after Close fails.
func (r *Runner) Close(ctx context.Context) error { return r.engine.Close(ctx) }

// Run reads the module at req.ScriptPath and runs it to completion under
// req.Timeout and ctx. A module that exits non-zero, traps, runs out of memory
// or times out is a result, not an error: on timeout ExitCode is
// core.TimeoutExitCode, TimedOut is set and core.TimeoutMarker ends stderr; a
// trap or the memory limit adds its own "[skills-mcp] …" line to stderr. A
// stream cut at req.MaxOutputBytes ends with sandbox.TruncationNote on its own
// line.
//
// Run returns an error without a result when the script cannot start: an
// invalid argument name (wrapping core.ErrInvalidArgument), an unreadable file,
// or bytes that are not a WASI command module (the error names the file). When
// ctx is cancelled before its deadline it returns the partial result with an
// error wrapping context.Canceled.
func (r *Runner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	if err := launch.CheckRequest(req); err != nil {
		return core.RunResult{}, err
	}
	argEnv, err := launch.ArgEnv(req.Args)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	if err := r.checkCwd(req); err != nil {
		return core.RunResult{}, err
	}
	module, err := readModule(req)
	if err != nil {
		return core.RunResult{}, err
	}
	return r.runModule(ctx, req, argEnv, module)
}

// runModule runs module, the bytes of req's script, once req is checked.
func (r *Runner) runModule(ctx context.Context, req core.RunRequest, argEnv []string, module []byte) (core.RunResult, error) {
	if err := ctx.Err(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}

	stdout := sandbox.NewCappedWriter(req.MaxOutputBytes)
	stderr := sandbox.NewCappedWriter(req.MaxOutputBytes)
	r.logger.Debug("running wasm script", "file", req.File, "dir", req.Dir)
	began := time.Now()
	exit, runErr := r.engine.Run(ctx, engine.ModuleRun{
		Module:   module,
		Name:     filepath.Base(req.ScriptPath),
		Env:      append([]string{launch.SkillDirEnv + "=" + engine.SkillMount}, argEnv...),
		SkillDir: req.SkillDir,
		Dir:      req.Dir,
		Timeout:  req.Timeout,
		Stdout:   stdout,
		Stderr:   stderr,
	})
	duration := time.Since(began)
	cancelled := errors.Is(runErr, context.Canceled)
	if runErr != nil && !cancelled {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, runErr)
	}

	res := launch.CapturedResult(exit.ExitCode, stdout, stderr, duration)
	res.TimedOut = exit.TimedOut
	for _, note := range exit.Notes {
		res.Stderr = launch.AppendLine(res.Stderr, note)
	}
	if cancelled {
		return res, fmt.Errorf("running %s: %w", req.File, runErr)
	}
	return res, nil
}

// checkCwd allows a /cwd mount only under the writable roots. A run in the
// skill directory itself needs none: the guest starts in /skill.
func (r *Runner) checkCwd(req core.RunRequest) error {
	if req.Dir == "" || filepath.Clean(req.Dir) == filepath.Clean(req.SkillDir) {
		return nil
	}
	dir, err := filepath.EvalSymlinks(req.Dir)
	if err != nil {
		return fmt.Errorf("running %s: working directory %s: %w", req.File, req.Dir, core.ErrInvalidArgument)
	}
	for _, root := range r.writableRoots {
		if real, err := filepath.EvalSymlinks(root); err == nil && confine.Within(real, dir) {
			return nil
		}
	}
	return fmt.Errorf("running %s: working directory %s is not under wasm.cwd_roots, so a .wasm script may not write there "+
		"(list the directory under wasm.cwd_roots in config.yaml, or omit cwd): %w", req.File, req.Dir, core.ErrInvalidArgument)
}

// readModule reads the module from req.Script, the file the core opened
// confined to the skills directory (issue 16, item 1), or from
// req.ScriptPath when the runner is called outside the core.
func readModule(req core.RunRequest) ([]byte, error) {
	var module []byte
	var err error
	if req.Script != nil {
		module, err = io.ReadAll(req.Script)
	} else {
		module, err = os.ReadFile(req.ScriptPath)
	}
	if err != nil {
		return nil, fmt.Errorf("running %s: reading module: %w", req.File, err)
	}
	return module, nil
}
