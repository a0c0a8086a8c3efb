package wasm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/runners/wasmproc"
)

// Host is the whole of the helper executable skills-mcp-wasm (see
// runners/wasmproc): it reads one wasmproc.Request from stdin, runs it on a
// fresh engine with a Runner, writes the wasmproc.Response to stdout and
// logs, as JSON lines, to stderr. module is the file the request's
// ModuleOpen refers to (nil when none was passed). SIGINT stops the module
// and answers with the partial result, as a cancelled context does in Run.
// It returns the exit code: 0 once a response is written, 2 when the request
// cannot be read.
func Host(stdin io.Reader, stdout, stderr io.Writer, module *os.File) int {
	var req wasmproc.Request
	if err := json.NewDecoder(stdin).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "%s: reading the request: %v\n", wasmproc.HelperName, err)
		return 2
	}
	log := childproc.Logger("wasm", req.LogLevel, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !req.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, req.Deadline)
		defer cancel()
	}
	res, err := hostRun(ctx, req, module, log)
	if err := json.NewEncoder(stdout).Encode(wasmproc.ErrorResponse(res, err)); err != nil {
		log.Error("writing the response", "error", err)
	}
	return 0
}

// hostRun runs req on an engine made for it alone and closes the engine.
func hostRun(ctx context.Context, req wasmproc.Request, module *os.File, log hclog.Logger) (core.RunResult, error) {
	engine, err := NewEngine(ctx, EngineOptions{
		MemoryLimitPages: req.Engine.MemoryLimitPages,
		CacheDir:         req.Engine.CacheDir,
		Mounts:           req.Engine.Mounts,
		Logger:           log,
	})
	if err != nil {
		return core.RunResult{}, fmt.Errorf("runner .wasm: %w", err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = engine.Close(closeCtx)
	}()
	run := core.RunRequest{
		ScriptPath: req.ScriptPath, File: req.File, SkillDir: req.SkillDir, Dir: req.Dir,
		Args: req.Args, Timeout: req.Timeout, MaxOutputBytes: req.MaxOutputBytes,
	}
	if req.ModuleOpen {
		if module == nil {
			return core.RunResult{}, fmt.Errorf("running %s: the module was not passed on fd %d", req.File, wasmproc.ModuleFD)
		}
		run.OpenScript = func() (*os.File, error) { return module, nil }
	}
	return New(engine, WithLogger(log), WithWritableRoots(req.Engine.WritableRoots)).Run(ctx, run)
}
