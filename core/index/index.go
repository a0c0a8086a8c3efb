package index

import (
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// Options configures an Index. The zero value of every field but Root is usable.
type Options struct {
	// Root is the skills directory, absolute or relative to the working directory.
	Root string
	// Matcher builds the searcher of each snapshot; nil means a searcher that
	// matches nothing.
	Matcher core.Matcher
	// Logger receives warnings about skipped files and entries; nil discards them.
	Logger hclog.Logger
}

// Index holds the current Snapshot of a skills directory and rebuilds it on
// demand (spec 000 §4.6). It is safe for concurrent use.
type Index struct {
	roots   []string
	matcher core.Matcher
	logger  hclog.Logger

	rebuildMu sync.Mutex // one rebuild at a time, so an older build never overwrites a newer one
	current   atomic.Pointer[Snapshot]
}

// New returns an Index over opts.Root holding an empty snapshot; call Rebuild to
// load the skills.
func New(opts Options) *Index {
	root := opts.Root
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	logger := opts.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	ix := &Index{roots: []string{root}, matcher: opts.Matcher, logger: logger}
	ix.current.Store(emptySnapshot())
	return ix
}

// Rebuild indexes the skills directory from scratch and atomically swaps the new
// snapshot in, returning it. When the directory cannot be read the previous
// snapshot stays current and the error is returned. Invalid files are skipped
// with a warning and never fail a rebuild.
func (ix *Index) Rebuild() (*Snapshot, error) {
	ix.rebuildMu.Lock()
	defer ix.rebuildMu.Unlock()
	sn, err := buildSnapshot(ix.roots, ix.matcher, ix.logger)
	if err != nil {
		return nil, err
	}
	ix.current.Store(sn)
	ix.logger.Debug("skill index rebuilt", "skills", sn.Len())
	return sn, nil
}

// Snapshot returns the current snapshot; never nil (empty before the first Rebuild).
func (ix *Index) Snapshot() *Snapshot { return ix.current.Load() }
