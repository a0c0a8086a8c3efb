package engine

import (
	"context"
	"crypto/sha256"
	"sync"

	"github.com/tetratelabs/wazero"
)

// maxCompiledModules bounds how many compiled modules an engine keeps; the
// least recently used one beyond it is closed once no run holds it.
const maxCompiledModules = 64

// moduleCache holds compiled modules keyed by the sha256 of their bytes, so a
// second run of the same bytes skips compilation and changed bytes are compiled
// afresh. Entries are reference-counted: an evicted module is closed only after
// the last run using it has returned it.
type moduleCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]*moduleEntry
	clock   uint64 // bumped on every use, for LRU order
	// compiles counts compilations, for tests.
	compiles int
}

type moduleEntry struct {
	key      [sha256.Size]byte
	compiled wazero.CompiledModule
	refs     int
	lastUse  uint64
	evicted  bool
}

func newModuleCache() *moduleCache {
	return &moduleCache{entries: make(map[[sha256.Size]byte]*moduleEntry)}
}

// acquire returns the compiled form of bin, compiling it with rt when it is not
// cached. The caller must release the entry when its run is over.
func (c *moduleCache) acquire(ctx context.Context, rt wazero.Runtime, bin []byte) (*moduleEntry, error) {
	key := sha256.Sum256(bin)
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.use(e)
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()

	// Compile outside the lock: it can take a while and other modules may run meanwhile.
	compiled, err := rt.CompileModule(ctx, bin)
	if err != nil {
		return nil, err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	c.compiles++
	if e, ok := c.entries[key]; ok { // a concurrent run compiled it first
		_ = compiled.Close(ctx)
		c.use(e)
		return e, nil
	}
	e := &moduleEntry{key: key, compiled: compiled}
	c.entries[key] = e
	c.use(e)
	c.evictLocked(ctx)
	return e, nil
}

func (c *moduleCache) use(e *moduleEntry) {
	c.clock++
	e.lastUse = c.clock
	e.refs++
}

// release returns an entry taken by acquire.
func (c *moduleCache) release(ctx context.Context, e *moduleEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.refs--
	if e.evicted && e.refs == 0 {
		_ = e.compiled.Close(ctx)
	}
}

// evictLocked drops least recently used entries beyond maxCompiledModules.
func (c *moduleCache) evictLocked(ctx context.Context) {
	for len(c.entries) > maxCompiledModules {
		var oldest *moduleEntry
		for _, e := range c.entries {
			if oldest == nil || e.lastUse < oldest.lastUse {
				oldest = e
			}
		}
		delete(c.entries, oldest.key)
		oldest.evicted = true
		if oldest.refs == 0 {
			_ = oldest.compiled.Close(ctx)
		}
	}
}
