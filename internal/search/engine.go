package search

import (
	"context"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// Engine is skills_search's full-text engine: the skills the snapshot's
// matcher ranks first (its order), then the others holding every token, in
// their install name, name, description or body, by install name.
type Engine interface {
	// Search returns the first limit hits of query over snap, each with its
	// score and excerpt, and how many there are in all. tokens are
	// Tokens(query). It stops when ctx ends, with ctx's error.
	Search(ctx context.Context, snap *index.Snapshot, query string, tokens []string, limit int) (hits []Hit, total int, err error)
	// Prepare readies, in the background, what Search needs for snap,
	// when an earlier snapshot was searched: a search after a reload then
	// finds it ready. An engine never searched does nothing.
	Prepare(snap *index.Snapshot)
}

// Tokens are the tokens of a query: its whitespace-separated words, folded
// rune by rune to lower case.
func Tokens(query string) []string { return strings.Fields(fold(query)) }

// Options configures New. The zero value is fine.
type Options struct {
	// Build, when set, runs each build of a snapshot's word index, which
	// reads every body once: the server lowers the collector's goal around
	// it and hands the garbage back after (internal/server's memory policy).
	Build func(build func())
}

// New returns the engine that answers from a word index of the latest
// snapshot searched, built the first time a snapshot is searched (from one
// read of every body) instead of reading a body per query.
func New(opts Options) Engine { return &cache{opts: opts} }

// cache holds the wordIndex of the latest snapshot searched.
type cache struct {
	opts Options
	mu   sync.Mutex
	cur  *wordIndex
}

// Search implements Engine.
func (c *cache) Search(ctx context.Context, snap *index.Snapshot, query string, tokens []string, limit int) ([]Hit, int, error) {
	return c.get(snap).search(ctx, query, tokens, limit)
}

// get returns the index of snap, building it (once per snapshot) when needed.
func (c *cache) get(snap *index.Snapshot) *wordIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != nil && c.cur.snap == snap {
		return c.cur
	}
	if c.opts.Build == nil {
		c.cur = buildWordIndex(snap)
		return c.cur
	}
	c.opts.Build(func() { c.cur = buildWordIndex(snap) })
	return c.cur
}

// Prepare implements Engine: a cache never used stays empty (servers that
// do not serve skills_search, or whose clients never call it, pay nothing).
func (c *cache) Prepare(snap *index.Snapshot) {
	c.mu.Lock()
	used := c.cur != nil && c.cur.snap != snap
	c.mu.Unlock()
	if used {
		go c.get(snap)
	}
}
