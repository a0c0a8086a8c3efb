package engine

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func TestWasmEngineCompilesEachModuleOnce(t *testing.T) {
	e := newTestEngine(t, Options{})
	steps := []struct {
		name         string
		module       []byte
		wantExit     int
		wantCompiles int
	}{
		{"first module", exitModule(1), 1, 1},
		{"same bytes again", exitModule(1), 1, 1},
		{"changed bytes", exitModule(2), 2, 2},
		{"first bytes once more", exitModule(1), 1, 2},
	}
	for _, step := range steps {
		got, err := e.Run(context.Background(), testRun(t, step.module))

		if err != nil || got.ExitCode != step.wantExit {
			t.Errorf("%s: exit %d, err %v, want exit %d", step.name, got.ExitCode, err, step.wantExit)
		}
		if n := e.modules.compilations(); n != step.wantCompiles {
			t.Errorf("%s: compilations = %d, want %d", step.name, n, step.wantCompiles)
		}
	}
}

// TestModuleCacheEvictsOnlyUnusedModules fills the cache past its bound while
// one module is held by a run: that module leaves the cache but stays usable
// until it is released, and is closed then.
func TestModuleCacheEvictsOnlyUnusedModules(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	c := newModuleCache()

	held, err := c.acquire(ctx, rt, exitModule(1000))
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxCompiledModules {
		e, err := c.acquire(ctx, rt, exitModule(int32(i)))
		if err != nil {
			t.Fatal(err)
		}
		c.release(ctx, e)
	}

	if got := len(c.entries); got != maxCompiledModules {
		t.Errorf("cached modules = %d, want the bound %d", got, maxCompiledModules)
	}
	if _, ok := c.entries[held.key]; ok {
		t.Errorf("least recently used module still cached, want it evicted")
	}
	if !held.evicted {
		t.Fatalf("held module not marked evicted")
	}
	if _, err := rt.InstantiateModule(ctx, held.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions()); err != nil {
		t.Errorf("instantiating the evicted module while held: %v, want it still usable", err)
	}

	c.release(ctx, held)

	if _, err := rt.InstantiateModule(ctx, held.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions()); err == nil {
		t.Errorf("instantiating the evicted module after release: no error, want it closed")
	}
}

// compilations reports how many modules were compiled so far.
func (c *moduleCache) compilations() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.compiles
}
