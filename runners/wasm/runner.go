package wasm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

var _ core.Runner = (*Runner)(nil)

// Runner runs .wasm scripts on one Engine. It is immutable after
// New and safe for concurrent use; the engine is the caller's to close.
type Runner struct {
	engine        *Engine
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

// WithWritableRoots lists the host directories under which a run's working
// directory may be mounted read-write at /cwd (config wasm.cwd_roots). A cwd
// anywhere else is refused: the caller of run_script chooses cwd, and a
// writable "/" would undo the sandbox.
func WithWritableRoots(dirs []string) Option {
	return func(r *Runner) { r.writableRoots = append([]string(nil), dirs...) }
}

// New returns a runner that executes modules on engine.
func New(engine *Engine, opts ...Option) *Runner {
	r := &Runner{engine: engine, logger: hclog.NewNullLogger()}
	for _, opt := range opts {
		opt(r)
	}
	return r
}

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
	exit, runErr := r.engine.Run(ctx, ModuleRun{
		Module:   module,
		Name:     filepath.Base(req.ScriptPath),
		Env:      append([]string{launch.SkillDirEnv + "=" + SkillMount}, argEnv...),
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
