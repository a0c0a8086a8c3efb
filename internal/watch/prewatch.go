package watch

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// prewatched is what Watch did for a caller that reads the trees itself
// (Options.Prewatched): the directories it watches, and the watches that
// failed, not yet reported by Run's goroutine.
type prewatched struct {
	mu      sync.Mutex
	watched map[string]bool // directories whose watch is in place, as far as known
	fails   treeResult      // failures since Run's goroutine last took them
}

// Watch adds a watch on the directory dir (symlinks resolved) unless it has
// one: called by a reader of the trees (internal/index's rebuild, through
// Index.WatchDirs) just before it reads dir, every change made in dir after
// that read is reported, by the watch. With Options.Prewatched, Run does not
// walk the trees at start: the first build's calls placed the watches.
// Watch may be called from several goroutines at once, before Run and while it
// runs; after Close it does nothing. A watch that fails (the kernel's watch
// limit, a directory that cannot be read) is logged by Run's goroutine, and
// the periodic rescan covers the trees from then on.
func (w *Watcher) Watch(dir string) {
	if w.fsw == nil {
		return
	}
	p := &w.pre
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watched[dir] {
		return
	}
	err := w.fsw.Add(dir)
	switch {
	case err == nil:
		p.watched[dir] = true
	case errors.Is(err, fsnotify.ErrClosed):
	default:
		p.fails.failed++
		if p.fails.firstErr == nil {
			p.fails.firstErr = &fs.PathError{Op: "watching", Path: dir, Err: err}
		}
	}
}

// forget drops name, when it is a directory known to be watched, and
// everything below it: a directory removed or moved away loses its watch (or
// keeps it under a path that no longer names it), so the next Watch of that
// path must add it again. A file's name costs one lookup.
func (p *prewatched) forget(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.watched[name] {
		return
	}
	prefix := name + string(filepath.Separator)
	for d := range p.watched {
		if d == name || strings.HasPrefix(d, prefix) {
			delete(p.watched, d)
		}
	}
}

// forgetAll drops every directory known to be watched (after lost events).
func (p *prewatched) forgetAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.watched)
}

// has reports whether Watch placed a watch on dir.
func (p *prewatched) has(dir string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.watched[dir]
}

// takeFailures returns the failed watches since the last call, and resets them.
func (p *prewatched) takeFailures() treeResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	res := p.fails
	p.fails = treeResult{}
	return res
}

// adoptPrewatched is Run's start with Options.Prewatched: no walk, the caller's
// reads placed the watches. A root whose watch is not in place (missing when
// the index was built, or created since) leaves the trees degraded, for the
// rescan to pick up. The baseline fingerprint is left unknown: the first
// rescan walk takes it, and reports an entry modified since Options.Since.
func (w *Watcher) adoptPrewatched() {
	w.degraded = false
	for _, root := range w.roots {
		real, err := filepath.EvalSymlinks(root)
		if err != nil || !w.pre.has(real) {
			w.log.Debug("skills root not watched for now; the rescan will pick it up", "root", root)
			w.degraded = true
			continue
		}
		w.realRoots[real] = true
	}
	w.reportWatchFailures()
}

// reportWatchFailures logs the watches Watch failed to add since it last
// looked, and marks the trees degraded when there are any.
func (w *Watcher) reportWatchFailures() {
	if res := w.pre.takeFailures(); res.failed > 0 {
		w.logTree("(directories read by the index)", res)
	}
}
