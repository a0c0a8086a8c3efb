package wasm

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
)

// Host is the whole of the helper executable skills-mcp-wasm (see
// internal/wasmproc, the server's side). Its first line is the handshake: a
// wasmproc.Request with the server's Hello, answered with this helper's
// (and the error, when it refuses a server of another build, or one that
// did not greet it, and returns 2). Then it serves runs one after the other
// until stdin ends: each a wasmproc.Request as one JSON line followed by the
// module's ModuleSize bytes, answered by one wasmproc.Response line on
// stdout. The engine is made at the first request, from its Engine, and kept,
// with its compiled modules, for the next ones (one Runner, made at the first request). Logs go to stderr as JSON
// lines. SIGINT stops the run in progress, which answers with its partial
// result, as a cancelled context does in Run; between runs it does nothing.
// It returns the exit code: 0 when stdin ends, 2 on a request it cannot read
// or a server it refuses.
func Host(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReader(stdin)
	out := json.NewEncoder(stdout)
	h := &host{}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	go func() {
		for range interrupts {
			h.interrupt()
		}
	}()
	defer h.close()
	own := childproc.NewHello(wasmproc.Protocol)
	greeted := false
	for {
		line, err := in.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return 0
		}
		var req wasmproc.Request
		if err == nil {
			err = json.Unmarshal(line, &req)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: reading a request: %v\n", wasmproc.HelperName, err)
			return 2
		}
		var module []byte
		if req.ModuleOpen {
			module = make([]byte, req.ModuleSize)
			if _, err := io.ReadFull(in, module); err != nil {
				fmt.Fprintf(stderr, "%s: reading the module of %s: %v\n", wasmproc.HelperName, req.File, err)
				return 2
			}
		}
		if h.log == nil {
			h.log = childproc.Logger("wasm", req.LogLevel, stderr)
		}
		if !greeted || req.Hello != nil { // the handshake: a server of this build only
			refused := childproc.CheckServer(wasmproc.HelperName, own, req.Hello)
			resp := wasmproc.ErrorResponse(core.RunResult{}, refused)
			resp.Hello = &own
			if err := out.Encode(resp); err != nil {
				h.log.Error("writing the response", "error", err)
				return 2
			}
			if refused != nil {
				h.log.Error("refusing the server", "error", refused)
				return 2
			}
			greeted = true
			continue
		}
		res, err := h.run(req, module)
		if err := out.Encode(wasmproc.ErrorResponse(res, err)); err != nil {
			h.log.Error("writing the response", "error", err)
			return 2
		}
	}
}

// host is the helper's state: its engine and the run in progress.
type host struct {
	log    hclog.Logger
	runner *Runner
	mu     sync.Mutex
	cancel context.CancelFunc // of the run in progress, nil between runs
}

func (h *host) interrupt() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cancel != nil {
		h.cancel()
	}
}

func (h *host) close() {
	if h.runner != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.runner.Close(ctx)
	}
}

// run runs one request on the helper's engine, made at the first.
func (h *host) run(req wasmproc.Request, module []byte) (core.RunResult, error) {
	if h.runner == nil {
		r, err := New(WithLogger(h.log), WithMemoryLimitPages(req.Engine.MemoryLimitPages),
			WithCacheDir(req.Engine.CacheDir), WithMounts(req.Engine.Mounts),
			WithWritableRoots(req.Engine.WritableRoots))
		if err != nil {
			return core.RunResult{}, fmt.Errorf("runner .wasm: %w", err)
		}
		h.runner = r
	}
	ctx, cancel := context.WithCancel(context.Background())
	if !req.Deadline.IsZero() {
		ctx, cancel = context.WithDeadline(context.Background(), req.Deadline)
	}
	h.mu.Lock()
	h.cancel = cancel
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.cancel = nil
		h.mu.Unlock()
		cancel()
	}()
	run := core.RunRequest{
		ScriptPath: req.ScriptPath, File: req.File, SkillDir: req.SkillDir, Dir: req.Dir,
		Args: req.Args, Timeout: req.Timeout, MaxOutputBytes: req.MaxOutputBytes,
	}
	if !req.ModuleOpen {
		return h.runner.Run(ctx, run)
	}
	// The server opened the module confined to the skills directory and sent its bytes.
	if err := launch.CheckRequest(run); err != nil {
		return core.RunResult{}, err
	}
	argEnv, err := launch.ArgEnv(run.Args)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", run.File, err)
	}
	if err := h.runner.checkCwd(run); err != nil {
		return core.RunResult{}, err
	}
	return h.runner.runModule(ctx, run, argEnv, module)
}
