package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
)

// Guest paths of the two mounts every run may get.
const (
	// SkillMount is where the skill's resource directory appears, read-only.
	SkillMount = wasmproc.SkillMount
	// CwdMount is where the request's working directory appears, read-write,
	// when it differs from the skill directory.
	CwdMount = wasmproc.CwdMount
)

// wasmPageSize is the size of one WebAssembly memory page.
const wasmPageSize = 64 << 10

// Options configures an Engine. The zero value is usable.
type Options struct {
	// MemoryLimitPages caps each module's linear memory, in 64 KiB pages
	// (MiB × 16). Zero means 65536 pages, the 4 GiB maximum of wasm32.
	MemoryLimitPages uint32
	// CacheDir keeps compiled code on disk across restarts. Empty, or a
	// directory that cannot be written, means an in-memory cache only.
	CacheDir string
	// Mounts adds read-only host directories: guest path (absolute, e.g.
	// "/data") → host directory. They may not be "/" nor clash with
	// SkillMount or CwdMount.
	Mounts map[string]string
	// Logger receives debug messages; nil discards them.
	Logger hclog.Logger
}

// Engine runs WebAssembly (WASI preview 1) modules in a sandbox: no host
// environment, no network, no stdin, a capped linear memory, a wall-clock limit,
// and file systems confined to the mounted directories. One engine owns one
// wazero runtime, made when the first module runs (a server that never runs
// one never pays for it), and is safe for concurrent runs.
type Engine struct {
	cacheDir   string
	limitPages uint32
	mounts     []wasmproc.Mount // checked and sorted by guest path
	modules    *moduleCache
	log        hclog.Logger

	startOnce sync.Once
	runtime   wazero.Runtime // set by start, with cache and startErr
	cache     wazero.CompilationCache
	startErr  error
	closed    bool // guarded by closeMu: Close ran, start must not make a runtime
	closeMu   sync.Mutex
}

// New checks opts (an invalid mount is an error here, not at the
// first run) and returns an engine whose runtime is made, with WASI
// instantiated into it, when the first module runs.
func New(_ context.Context, opts Options) (*Engine, error) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	mounts, err := wasmproc.CheckMounts(opts.Mounts)
	if err != nil {
		return nil, err
	}
	limit := opts.MemoryLimitPages
	if limit == 0 || limit > 65536 {
		limit = 65536
	}
	return &Engine{cacheDir: opts.CacheDir, limitPages: limit, mounts: mounts, modules: newModuleCache(), log: log}, nil
}

// start makes the runtime once; every run waits for it and shares its error.
func (e *Engine) start() (wazero.Runtime, error) {
	e.startOnce.Do(func() {
		e.closeMu.Lock()
		defer e.closeMu.Unlock()
		if e.closed {
			e.startErr = errors.New("the wasm engine is closed")
			return
		}
		ctx := context.Background() // the runtime outlives the run that made it
		cache := newCompilationCache(e.cacheDir, e.log)
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
			WithMemoryLimitPages(e.limitPages).
			WithCloseOnContextDone(true).
			WithCompilationCache(cache))
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			_ = rt.Close(ctx)
			_ = cache.Close(ctx)
			e.startErr = fmt.Errorf("instantiating wasi: %w", err)
			return
		}
		e.runtime, e.cache = rt, cache
	})
	return e.runtime, e.startErr
}

// newCompilationCache uses dir when it can be written, else memory.
func newCompilationCache(dir string, log hclog.Logger) wazero.CompilationCache {
	if dir == "" {
		return wazero.NewCompilationCache()
	}
	if err := checkWritableDir(dir); err != nil {
		log.Debug("wasm compilation cache kept in memory", "dir", dir, "error", err)
		return wazero.NewCompilationCache()
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		log.Debug("wasm compilation cache kept in memory", "dir", dir, "error", err)
		return wazero.NewCompilationCache()
	}
	return cache
}

func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}

// MemoryLimitBytes is the linear memory cap of each module.
func (e *Engine) MemoryLimitBytes() uint64 { return uint64(e.limitPages) * wasmPageSize }

// Close releases the runtime, every compiled module and the compilation cache.
func (e *Engine) Close(ctx context.Context) error {
	e.closeMu.Lock()
	defer e.closeMu.Unlock()
	e.closed = true
	if e.runtime == nil {
		return nil // never started
	}
	err := e.runtime.Close(ctx)
	if cerr := e.cache.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("closing wasm engine: %w", err)
	}
	return nil
}
