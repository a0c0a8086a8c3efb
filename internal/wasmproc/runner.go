package wasmproc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
)

var _ core.Runner = (*Runner)(nil)

// IdleTimeout is how long a helper waits for its next run before it is ended
// (its engine and compiled modules with it).
const IdleTimeout = 30 * time.Second

// Options configure a Runner.
type Options struct {
	// Engine is the helper's engine configuration.
	Engine Engine
	// Helper is the helper's path; empty means Find at the first run.
	Helper string
	// Logger receives the helper's log lines; nil discards them.
	Logger hclog.Logger
	// MaxIdle bounds the helpers kept warm between runs (the server gives its
	// bound of runs at once); a helper ending a run while that many wait is
	// ended. 0 means scripts.DefaultMaxConcurrent().
	MaxIdle int
	// Processes is the server's table of runs and helpers, in which every
	// helper is registered while it runs (childproc.Start); nil registers
	// nothing.
	Processes *launch.Processes
}

// Runner runs .wasm scripts in skills-mcp-wasm helpers. It is safe for
// concurrent use; Close ends the helpers.
type Runner struct {
	opts   Options
	mu     sync.Mutex
	idle   []*helper
	closed bool
}

// New returns a runner with opts.
func New(opts Options) *Runner {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.MaxIdle <= 0 {
		opts.MaxIdle = scripts.DefaultMaxConcurrent()
	}
	return &Runner{opts: opts}
}

// Find returns the path of the helper: next to the running executable (its
// symlinks resolved), else on PATH.
func Find() (string, error) { return childproc.Find(HelperName) }

// helper is one running skills-mcp-wasm.
type helper struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	logs   *childproc.RelayWriter
	timer  *time.Timer // ends it when idle too long
}

func (h *helper) end() {
	_ = h.stdin.Close() // the helper returns at the end of its stdin
	go func() {
		done := make(chan struct{})
		go func() { _ = h.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(childproc.StopGrace):
			_ = h.cmd.Process.Kill()
			<-done
		}
		h.logs.Flush()
	}()
}

func (h *helper) kill() {
	childproc.KillGroup(h.cmd.Process) // the group childproc.Start made for it
	h.end()
}

// start starts a helper and greets it (greet): one of another build than
// this server's is refused.
func (r *Runner) start(ctx context.Context, path string) (*helper, error) {
	cmd := exec.Command(path)
	cmd.Env = []string{} // the helper needs nothing of the server's environment (its secrets least of all)
	h := &helper{cmd: cmd, logs: childproc.LogWriter(r.opts.Logger)}
	cmd.Stderr = h.logs
	var err error
	if h.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h.stdout = bufio.NewReader(out)
	// Its own process group, killed with the server (Linux): no helper outlives it.
	if err := childproc.Start(cmd, r.opts.Processes); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	if err := r.greet(ctx, h, path); err != nil {
		return nil, err
	}
	return h, nil
}

// get returns an idle helper, else nil.
func (r *Runner) get() *helper {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.idle) > 0 {
		h := r.idle[len(r.idle)-1]
		r.idle = r.idle[:len(r.idle)-1]
		if h.timer.Stop() {
			return h
		}
	}
	return nil
}

// put keeps h for the next run, for IdleTimeout, unless MaxIdle helpers
// already wait.
func (r *Runner) put(h *helper) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || len(r.idle) >= r.opts.MaxIdle {
		h.end()
		return
	}
	h.timer = time.AfterFunc(IdleTimeout, func() {
		r.mu.Lock()
		for i, x := range r.idle {
			if x == h {
				r.idle = append(r.idle[:i], r.idle[i+1:]...)
				break
			}
		}
		r.mu.Unlock()
		h.end()
	})
	r.idle = append(r.idle, h)
}

// Close ends the idle helpers; a helper running a script ends when it is done.
func (r *Runner) Close(context.Context) error {
	r.mu.Lock()
	idle := r.idle
	r.idle, r.closed = nil, true
	r.mu.Unlock()
	for _, h := range idle {
		if h.timer.Stop() {
			h.end()
		}
	}
	return nil
}

// errHelperGone is a helper that died between runs (its stdin is closed).
var errHelperGone = errors.New("the helper ended")

// Run runs req in a helper. Its results and errors are those of
// runners/wasm.Runner.Run in the helper; errors.Is holds for the sentinel
// errors of core and context. A helper that cannot be started, or that dies
// without answering, is an error naming it; one of another build than this
// server's (the handshake, at its start) an error wrapping
// childproc.ErrMismatch that names both builds and where the helper is.
func (r *Runner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	path := r.opts.Helper
	if path == "" {
		var err error
		if path, err = Find(); err != nil {
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
	if f := req.Script; f != nil { // opened by the core, confined to the skills directory
		st, err := f.Stat()
		if err != nil {
			return core.RunResult{}, fmt.Errorf("running %s: reading module: %w", req.File, err)
		}
		module, wire.ModuleOpen, wire.ModuleSize = f, true, st.Size()
	}
	if err := ctx.Err(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	for {
		h, reused := r.get(), true
		if h == nil {
			var err error
			if h, err = r.start(ctx, path); err != nil {
				return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
			}
			reused = false
		}
		res, err := r.call(ctx, h, wire, module)
		if errors.Is(err, errHelperGone) && reused { // it ended while idle: once more with a new one
			if module != nil {
				if _, serr := module.Seek(0, io.SeekStart); serr != nil {
					return core.RunResult{}, fmt.Errorf("running %s: reading module: %w", req.File, serr)
				}
			}
			continue
		}
		if err != nil {
			return res, fmt.Errorf("running %s: %w", req.File, err)
		}
		return res, nil
	}
}

// call sends one run to h and reads its answer. h goes back to the pool
// after an answer, and is killed otherwise.
func (r *Runner) call(ctx context.Context, h *helper, wire Request, module *os.File) (core.RunResult, error) {
	line, err := json.Marshal(wire)
	if err != nil {
		h.end()
		return core.RunResult{}, err
	}
	if _, err := h.stdin.Write(append(line, '\n')); err != nil {
		h.kill()
		return core.RunResult{}, fmt.Errorf("%w: %v", errHelperGone, err)
	}
	if module != nil {
		if _, err := io.CopyN(h.stdin, module, wire.ModuleSize); err != nil {
			h.kill()
			return core.RunResult{}, fmt.Errorf("sending the module: %w", err)
		}
	}
	type read struct {
		line []byte
		err  error
	}
	answer := make(chan read, 1)
	go func() {
		b, err := childproc.ReadLine(h.stdout, answerLimit(wire.MaxOutputBytes), HelperName)
		answer <- read{b, err}
	}()
	var stop <-chan time.Time // after the caller's end, the grace to answer
	done := ctx.Done()
	if wire.Timeout > 0 { // the helper stops the module at the timeout; this bounds a helper that does not
		t := time.NewTimer(wire.Timeout + childproc.StopGrace)
		defer t.Stop()
		stop = t.C
	}
	for {
		select {
		case a := <-answer:
			if errors.Is(a.err, childproc.ErrAnswerTooLarge) {
				h.kill()
				return core.RunResult{}, a.err
			}
			var resp Response
			if err := json.Unmarshal(a.line, &resp); err != nil {
				h.kill()
				err = fmt.Errorf("%s ended without an answer", HelperName)
				if ctx.Err() != nil {
					err = fmt.Errorf("%w: %w", err, ctx.Err())
				}
				return core.RunResult{}, err
			}
			r.put(h)
			return resp.Result, resp.Err()
		case <-done: // stop the module: the helper answers with the partial result
			done = nil
			if err := h.cmd.Process.Signal(os.Interrupt); err != nil {
				h.kill()
			}
			t := time.NewTimer(childproc.StopGrace)
			defer t.Stop()
			stop = t.C
		case <-stop:
			h.kill()
			if ctx.Err() != nil {
				return core.RunResult{}, fmt.Errorf("%s did not stop: %w", HelperName, ctx.Err())
			}
			return core.RunResult{}, fmt.Errorf("%s did not answer within the timeout and %s", HelperName, childproc.StopGrace)
		}
	}
}
