package hybrid

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
)

// cacheVersion changes when the text a skill is embedded from, or the file
// format, changes: every old entry is then a miss.
const cacheVersion = "skills-mcp hybrid v1"

// vectorCache keeps skill vectors by digest: in memory for the process, and
// on disk (one file per vector) when dir is set, so a restart embeds nothing
// that did not change. It is safe for concurrent use.
type vectorCache struct {
	dir string // "" keeps vectors in memory only
	mu  sync.Mutex
	mem map[string][]float32
}

func newVectorCache(dir string) *vectorCache {
	return &vectorCache{dir: dir, mem: map[string][]float32{}}
}

// digest is the cache key of text embedded by model at endpoint: a vector
// depends on all three.
func digest(endpoint, model, text string) string {
	h := sha256.New()
	for _, part := range []string{cacheVersion, endpoint, model, text} {
		fmt.Fprintf(h, "%d:%s\x00", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// get returns the vector of key, from memory, else from disk (then kept in
// memory). A file that cannot be read or is damaged is a miss.
func (c *vectorCache) get(key string) ([]float32, bool) {
	c.mu.Lock()
	v, ok := c.mem[key]
	c.mu.Unlock()
	if ok || c.dir == "" {
		return v, ok
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	v, err = decodeVector(data)
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	c.mem[key] = v
	c.mu.Unlock()
	return v, true
}

// put keeps v under key in memory and, when the cache has a directory, on
// disk. A failure to write is returned but the vector stays in memory.
func (c *vectorCache) put(key string, v []float32) error {
	c.mu.Lock()
	c.mem[key] = v
	c.mu.Unlock()
	if c.dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(encodeVector(v))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), c.path(key)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// forget drops from memory every vector not in keep, so that a long-lived
// server holds the vectors of its current skills only.
func (c *vectorCache) forget(keep map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.mem {
		if !keep[k] {
			delete(c.mem, k)
		}
	}
}

func (c *vectorCache) path(key string) string { return filepath.Join(c.dir, key+".f32") }

// encodeVector is the file form of v: its values as little-endian float32.
func encodeVector(v []float32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}

// decodeVector reads encodeVector's form: 1 to maxDimension finite values.
func decodeVector(data []byte) ([]float32, error) {
	if len(data) == 0 || len(data)%4 != 0 || len(data)/4 > maxDimension {
		return nil, fmt.Errorf("cached vector of %d bytes: want a multiple of 4, at most %d values", len(data), maxDimension)
	}
	v := make([]float32, len(data)/4)
	for i := range v {
		x := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, errors.New("cached vector holds a value that is not a finite number")
		}
		v[i] = x
	}
	return v, nil
}
