package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/tetratelabs/wazero"
	experimentalsysfs "github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"
)

// TrapExitCode is the exit code of a module that trapped (hit `unreachable`,
// an out-of-bounds access, …): 128 + SIGABRT, as a native abort would give.
const TrapExitCode = 134

// ModuleRun is one module execution.
type ModuleRun struct {
	// Module holds the module's bytes.
	Module []byte
	// Name is the script's file name: the guest's argv[0], and the name used in errors.
	Name string
	// Env is the guest's whole environment, NAME=value entries; nothing else is added.
	Env []string
	// SkillDir is mounted read-only at SkillMount.
	SkillDir string
	// Dir is mounted read-write at CwdMount when it is set and is not SkillDir.
	// It is then the first preopen, which the Go runtime (and wasi-libc) take as
	// the working directory; otherwise that is SkillMount.
	Dir string
	// Timeout is the wall-clock limit; zero means none beyond ctx.
	Timeout time.Duration
	// Stdout and Stderr receive the guest's output; nil discards it.
	Stdout, Stderr io.Writer
}

// ModuleExit is how a module run ended.
type ModuleExit struct {
	// ExitCode is the guest's proc_exit code, 0 when _start returned,
	// core.TimeoutExitCode when killed at the deadline or on cancellation,
	// TrapExitCode on a trap.
	ExitCode int
	// TimedOut reports a kill at the deadline (the run's Timeout or ctx's deadline).
	TimedOut bool
	// MemoryExceeded reports that the guest failed for want of memory under the
	// limit (best effort: seen in its error output).
	MemoryExceeded bool
	// Notes are lines for the caller to append to stderr, each on its own line:
	// the memory-limit note, the trap, core.TimeoutMarker.
	Notes []string
}

// Run instantiates the module afresh and calls its _start export. It returns an
// error without running anything when the module does not compile, exports no
// _start, or a mount cannot be opened. When ctx is cancelled (not at a deadline)
// the module is stopped and Run returns the partial exit with an error
// wrapping context.Canceled.
func (e *Engine) Run(ctx context.Context, run ModuleRun) (ModuleExit, error) {
	rt, err := e.start()
	if err != nil {
		return ModuleExit{}, err
	}
	entry, err := e.modules.acquire(ctx, rt, run.Module)
	if err != nil {
		return ModuleExit{}, fmt.Errorf("compiling wasm module %s: %w", run.Name, err)
	}
	defer e.modules.release(context.WithoutCancel(ctx), entry)
	if _, ok := entry.compiled.ExportedFunctions()["_start"]; !ok {
		return ModuleExit{}, fmt.Errorf("running wasm module %s: it exports no _start function (not a WASI command)", run.Name)
	}

	fsConfig, closeMounts, err := e.mountConfig(run)
	if err != nil {
		return ModuleExit{}, fmt.Errorf("running wasm module %s: %w", run.Name, err)
	}
	defer closeMounts()

	runCtx, cancel := withTimeout(ctx, run.Timeout)
	defer cancel()

	stderr := &oomWatcher{w: orDiscard(run.Stderr)}
	config := wazero.NewModuleConfig().
		WithName(""). // anonymous: many instances of one module may run at once
		WithStartFunctions().
		WithArgs(run.Name).
		WithStdin(strings.NewReader("")).
		WithStdout(orDiscard(run.Stdout)).
		WithStderr(stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithNanosleep(sleepUntilDone(runCtx)).
		WithRandSource(rand.Reader).
		WithFSConfig(fsConfig)
	for _, kv := range run.Env {
		k, v, _ := strings.Cut(kv, "=")
		config = config.WithEnv(k, v)
	}

	mod, err := rt.InstantiateModule(runCtx, entry.compiled, config)
	if err != nil {
		return ModuleExit{}, fmt.Errorf("instantiating wasm module %s: %w", run.Name, err)
	}
	defer mod.Close(context.WithoutCancel(ctx))
	e.log.Debug("running wasm module", "name", run.Name, "dir", run.Dir)
	_, callErr := mod.ExportedFunction("_start").Call(runCtx)
	return e.classify(run.Name, callErr, stderr.sawOOM())
}

// classify turns the result of _start into a ModuleExit.
func (e *Engine) classify(name string, callErr error, sawOOM bool) (ModuleExit, error) {
	var exitErr *sys.ExitError
	switch {
	case callErr == nil:
		return ModuleExit{}, nil
	case errors.As(callErr, &exitErr) && exitErr.ExitCode() == sys.ExitCodeDeadlineExceeded:
		e.log.Warn("wasm module killed: timeout exceeded", "name", name)
		return ModuleExit{ExitCode: core.TimeoutExitCode, TimedOut: true, Notes: []string{core.TimeoutMarker}}, nil
	case errors.As(callErr, &exitErr) && exitErr.ExitCode() == sys.ExitCodeContextCanceled:
		e.log.Warn("wasm module stopped: request cancelled", "name", name)
		return ModuleExit{ExitCode: core.TimeoutExitCode}, fmt.Errorf("running wasm module %s: %w", name, context.Canceled)
	}
	res := ModuleExit{ExitCode: TrapExitCode}
	if errors.As(callErr, &exitErr) {
		res.ExitCode = int(exitErr.ExitCode())
	} else {
		trap, _, _ := strings.Cut(callErr.Error(), "\n")
		res.Notes = append(res.Notes, "[skills-mcp] wasm module trapped: "+trap)
	}
	if res.ExitCode != 0 && sawOOM {
		res.MemoryExceeded = true
		res.Notes = append(res.Notes, fmt.Sprintf("[skills-mcp] wasm module exceeded the memory limit (%d MiB)", e.MemoryLimitBytes()>>20))
	}
	return res, nil
}

// mountConfig opens the run's mounts, each confined by an os.Root. The returned
// function closes them once the module is done.
func (e *Engine) mountConfig(run ModuleRun) (wazero.FSConfig, func(), error) {
	var opened []*rootFS
	budget := &openBudget{limit: MaxOpenFiles}
	closeAll := func() {
		for _, r := range opened {
			_ = r.Close()
		}
	}
	fsc := wazero.NewFSConfig()
	mount := func(host, guest string, readOnly bool) error {
		r, err := newRootFS(host, readOnly, budget)
		if err != nil {
			return fmt.Errorf("mounting %s at %s: %w", host, guest, err)
		}
		opened = append(opened, r)
		fsc = fsc.(experimentalsysfs.FSConfig).WithSysFSMount(r, guest)
		return nil
	}
	if run.SkillDir == "" {
		return nil, nil, errors.New("no skill directory to mount")
	}
	// The first preopen is the guest's working directory.
	if run.Dir != "" && filepath.Clean(run.Dir) != filepath.Clean(run.SkillDir) {
		if err := mount(run.Dir, CwdMount, false); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	if err := mount(run.SkillDir, SkillMount, true); err != nil {
		closeAll()
		return nil, nil, err
	}
	for _, m := range e.mounts {
		if err := mount(m.Host, m.Guest, true); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	return fsc, closeAll, nil
}

// sleepUntilDone is the guest's nanosleep: it returns early when ctx ends, so a
// sleeping module is stopped at its deadline rather than after its sleep.
func sleepUntilDone(ctx context.Context) sys.Nanosleep {
	return func(ns int64) {
		t := time.NewTimer(time.Duration(ns))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
}

// withTimeout bounds ctx by d when d is positive.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
