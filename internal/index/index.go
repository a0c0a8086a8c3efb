package index

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// Options configures an Index. The zero value of every field but Root (or
// Roots) is usable.
type Options struct {
	// Roots are the skills directories in precedence order (see Root and
	// DefaultRoots). When empty, Root is used.
	Roots []Root
	// Root is a single skills directory, absolute or relative to the working
	// directory, used when Roots is empty: a required root labelled
	// SourceSkillsDir, so a missing or unreadable Root fails Rebuild.
	Root string
	// Matcher builds the searcher of each snapshot; nil means a searcher that
	// matches nothing.
	Matcher core.Matcher
	// Logger receives warnings about skipped files and entries; nil discards
	// them. A warning is logged once per Index and text: a rebuild finding the
	// same problem again does not repeat it.
	Logger hclog.Logger
	// MaxFileBytes bounds a skill file (SKILL.md or a tree skill's .md): a
	// larger one is skipped with a warning naming it, and its body is never
	// read. Zero or less means DefaultMaxFileBytes.
	MaxFileBytes int64
	// Admit, when set, is asked after each build which skills of the new
	// snapshot may not be served: skill path → why (serve --frozen's lock
	// file). Those are left out and the snapshot built again, until Admit
	// refuses no more (what a left-out parent changes in its children is
	// checked too); each left-out skill is logged with its reason.
	Admit func(*Snapshot) map[string]string
}

// DefaultMaxFileBytes bounds a skill file when Options.MaxFileBytes is not
// set: far above any skill an agent should load (spec 000 suggests a few
// hundred lines), far below what would strain the server (issue 16, item 13).
const DefaultMaxFileBytes = 1 << 20

// Index holds the current Snapshot of its skills directories and rebuilds it on
// demand (spec 000 §4.6). It is safe for concurrent use.
type Index struct {
	roots   []Root
	matcher core.Matcher
	logger  hclog.Logger
	maxFile int64 // Options.MaxFileBytes or its default
	admit   func(*Snapshot) map[string]string

	rebuildMu sync.Mutex // one rebuild at a time, so an older build never overwrites a newer one
	current   atomic.Pointer[Snapshot]
	onDir     atomic.Pointer[func(string)] // WatchDirs
}

// WatchDirs has every later rebuild call fn with each directory it reads
// (symlinks resolved), just before reading it: the roots, the folders
// discovery walks, the Agent Skills folders and the resource directories of
// the tree skills (walked the first time their files or the problems are asked for).
// A file watcher that places its watch there (watch.Watcher.Watch) sees
// every change made after the rebuild read the directory, without walking the
// trees itself: the index and the watcher share one walk. fn may be called
// from several goroutines at once; nil stops the calls.
func (ix *Index) WatchDirs(fn func(dir string)) {
	if fn == nil {
		ix.onDir.Store(nil)
		return
	}
	ix.onDir.Store(&fn)
}

// New returns an Index over opts.Roots (or opts.Root) holding an empty
// snapshot; call Rebuild to load the skills.
func New(opts Options) *Index {
	logger := opts.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	maxFile := opts.MaxFileBytes
	if maxFile <= 0 {
		maxFile = DefaultMaxFileBytes
	}
	ix := &Index{roots: rootsOf(opts), matcher: opts.Matcher, logger: newOnceLogger(logger), maxFile: maxFile, admit: opts.Admit}
	ix.current.Store(emptySnapshot())
	return ix
}

// Rebuild indexes the skills directories from scratch and atomically swaps the
// new snapshot in, returning it. A root that does not exist is skipped and one
// that cannot be read is skipped with a warning, unless it is Required; when a
// required root fails, or every root that exists fails, the previous snapshot
// stays current and the error is returned (no root existing at all gives an
// empty index). Invalid files are skipped with a warning, recorded in
// Snapshot.Problems, and never fail a rebuild. When ctx ends first, the walk
// and the scan stop, the previous snapshot stays current, and the error wraps
// ctx's cause.
//
// The resource directory of a tree skill is walked the first time its files
// are asked for (Files, Manifest), and all of them the first time the
// problems are (Problems): what needs no walk is served at once, and what
// nobody asks for costs nothing.
func (ix *Index) Rebuild(ctx context.Context) (*Snapshot, error) {
	ix.rebuildMu.Lock()
	defer ix.rebuildMu.Unlock()
	var onDir func(string)
	if fn := ix.onDir.Load(); fn != nil {
		onDir = *fn
	}
	sn, err := ix.buildAdmitted(ctx, onDir)
	if err != nil {
		return nil, err
	}
	ix.current.Store(sn)
	ix.logger.Debug("skill index rebuilt", "skills", sn.Len())
	return sn, nil
}

// buildAdmitted builds a snapshot of what Options.Admit lets through.
func (ix *Index) buildAdmitted(ctx context.Context, onDir func(string)) (*Snapshot, error) {
	var exclude map[string]string
	for {
		sn, err := buildSnapshot(ctx, ix.roots, ix.matcher, ix.logger, ix.maxFile, onDir, ix.current.Load(), exclude)
		if err != nil || ix.admit == nil {
			return sn, err
		}
		refused := ix.admit(sn)
		more := false
		for _, p := range slices.Sorted(maps.Keys(refused)) {
			if _, done := exclude[p]; done {
				continue
			}
			if exclude == nil {
				exclude = map[string]string{}
			}
			exclude[p], more = refused[p], true
			ix.logger.Warn("not serving a skill", "skill", p, "reason", refused[p])
		}
		if !more {
			sn.refused = exclude
			return sn, nil
		}
	}
}

// Refused returns the skills Options.Admit kept out of this snapshot: skill
// path → why. The map is the snapshot's: read it, never modify it.
func (sn *Snapshot) Refused() map[string]string { return sn.refused }

// Snapshot returns the current snapshot; never nil (empty before the first Rebuild).
func (ix *Index) Snapshot() *Snapshot { return ix.current.Load() }
