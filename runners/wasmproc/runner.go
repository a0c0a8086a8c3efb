package wasmproc

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

var _ core.Runner = (*Runner)(nil)

// Options configure a Runner.
type Options struct {
	// Engine is the helper's engine configuration.
	Engine Engine
	// Helper is the helper's path; empty means Find at the first run.
	Helper string
	// Logger receives the helper's log lines; nil discards them.
	Logger hclog.Logger
}

// Runner runs .wasm scripts, each in a child skills-mcp-wasm process. It is
// safe for concurrent use.
type Runner struct {
	opts Options
}

// New returns a runner with opts.
func New(opts Options) *Runner {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	return &Runner{opts: opts}
}

// Find returns the path of the helper: next to the running executable (its
// symlinks resolved), else on PATH.
func Find() (string, error) { return childproc.Find(HelperName) }

// Run runs req in a new helper process. Its results and errors are those of
// runners/wasm.Runner.Run in the helper; errors.Is holds for the sentinel
// errors of core and context. A helper that cannot be started, or that dies
// without answering, is an error naming it.
func (r *Runner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	helper := r.opts.Helper
	if helper == "" {
		var err error
		if helper, err = Find(); err != nil {
			return core.RunResult{}, fmt.Errorf("running %s: %w: %w", req.File, core.ErrNoRunner, err)
		}
	}
	wire := Request{
		Engine: r.opts.Engine, ScriptPath: req.ScriptPath, File: req.File, SkillDir: req.SkillDir, Dir: req.Dir,
		Args: req.Args, Timeout: req.Timeout, MaxOutputBytes: req.MaxOutputBytes, LogLevel: childproc.Level(r.opts.Logger),
	}
	if d, ok := ctx.Deadline(); ok {
		wire.Deadline = d
	}
	var module *os.File
	if req.OpenScript != nil {
		f, err := req.OpenScript()
		if err != nil {
			return core.RunResult{}, fmt.Errorf("running %s: reading module: %w: %w", req.File, core.ErrPathTraversal, err)
		}
		defer f.Close()
		module, wire.ModuleOpen = f, true
	}
	if err := ctx.Err(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	runCtx := ctx
	if req.Timeout > 0 { // the helper stops the module at the timeout; this bounds a helper that does not
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, req.Timeout+childproc.StopGrace)
		defer cancel()
	}
	var extra []*os.File
	if module != nil {
		extra = []*os.File{module}
	}
	var resp Response
	// An empty environment: the helper needs nothing of the server's (its secrets least of all).
	if err := childproc.Call(runCtx, helper, wire, &resp, []string{}, extra, r.opts.Logger); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	return resp.Result, resp.Err()
}
