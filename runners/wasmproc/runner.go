package wasmproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

var _ core.Runner = (*Runner)(nil)

// stopGrace is how long a helper asked to stop (the caller's context ended)
// has to answer with its partial result before it is killed; and how long
// past the run's own timeout the helper may take before it is stopped.
const stopGrace = 5 * time.Second

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

// ErrNoHelper is wrapped by the error of a run when skills-mcp-wasm is neither
// next to the running executable nor on PATH.
var ErrNoHelper = errors.New(HelperName + " is neither next to this executable nor on PATH (make build and make install put it there)")

// Find returns the path of the helper: next to the running executable (its
// symlinks resolved), else on PATH.
func Find() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), HelperName)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", ErrNoHelper
}

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
		Args: req.Args, Timeout: req.Timeout, MaxOutputBytes: req.MaxOutputBytes, LogLevel: level(r.opts.Logger),
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
	in, err := json.Marshal(wire)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}

	runCtx := ctx
	if req.Timeout > 0 { // the helper stops the module at the timeout; this bounds a helper that does not
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, req.Timeout+stopGrace)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, helper)
	cmd.Env = []string{} // the helper needs nothing of the server's environment (its secrets least of all)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &out
	logs, err := cmd.StderrPipe()
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	if module != nil {
		cmd.ExtraFiles = []*os.File{module}
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) } // answer with the partial result
	cmd.WaitDelay = stopGrace
	if err := cmd.Start(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: starting %s: %w", req.File, helper, err)
	}
	relayed := make(chan struct{})
	go func() { defer close(relayed); relay(logs, r.opts.Logger) }()
	<-relayed
	waitErr := cmd.Wait()

	var resp Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		err = fmt.Errorf("running %s: %s ended without an answer: %v", req.File, HelperName, waitErr)
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", err, ctx.Err())
		}
		return core.RunResult{}, err
	}
	return resp.Result, resp.Err()
}

// level is the name of l's level, for the helper's logger.
func level(l hclog.Logger) string {
	switch {
	case l.IsTrace():
		return "trace"
	case l.IsDebug():
		return "debug"
	case l.IsInfo():
		return "info"
	case l.IsWarn():
		return "warn"
	}
	return "error"
}

// relay logs the helper's stderr on l: its JSON log lines at their level with
// their fields, any other line (a panic) as an error.
func relay(r io.Reader, l hclog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var entry map[string]any
		if json.Unmarshal(sc.Bytes(), &entry) != nil {
			l.Error(HelperName, "line", sc.Text())
			continue
		}
		msg, _ := entry["@message"].(string)
		lvl, _ := entry["@level"].(string)
		args := make([]any, 0, 2*len(entry))
		for k, v := range entry {
			if len(k) > 0 && k[0] != '@' {
				args = append(args, k, v)
			}
		}
		l.Log(hclog.LevelFromString(lvl), msg, args...)
	}
	_, _ = io.Copy(io.Discard, r)
}
