package skillscmd

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/watch"
)

// watching is the live reload of local mode: a watcher made before the first
// index build, whose watches that build places as it reads each directory
// (index.Index.WatchDirs), so the trees are walked once at start-up, not once
// by the index and again by the watcher. It runs once the index is built.
type watching struct {
	w    *watch.Watcher
	log  hclog.Logger
	ctx  context.Context
	srv  *server.Server
	once sync.Once
	done chan struct{} // closed when Run has returned; nil until start
}

// prepareWatching makes the watcher of c's roots and hands its Watch to c's
// index, before the first build (which began at indexedAt, or is about to).
// A change made after the build read a directory is reported by that
// directory's watch; one no watch could see (a network file system) by the
// first rescan, which compares modification times with indexedAt. It
// returns nil, and logs why, when live reload is off.
func prepareWatching(c *content, indexedAt time.Time, log hclog.Logger) *watching {
	pw := &watching{log: log}
	w, err := watch.New(watch.Options{
		Since:      indexedAt,
		Prewatched: true,
		Roots:      rootDirs(c.roots),
		Logger:     log,
		OnChange:   pw.reindex,
	})
	if err != nil {
		log.Warn("live reload is off", "error", err)
		return nil
	}
	pw.w = w
	c.idx.WatchDirs(w.Watch)
	return pw
}

// reindex rebuilds the index when files under the roots changed: a burst of
// changes gives one rebuild after a 500 ms quiet period, with a 30 s rescan
// where watching fails. A failed rebuild keeps the previous index.
func (pw *watching) reindex() {
	snap, err := pw.srv.Rebuild(pw.ctx)
	if err != nil {
		pw.log.Warn("reindex after a file change failed; keeping the previous index", "error", err)
		return
	}
	pw.log.Info("skills reindexed after a file change", "skills", snap.Len())
}

// start runs the watcher once the index is built, reindexing srv until ctx
// ends or stop is called. It returns stop.
func (pw *watching) start(ctx context.Context, srv *server.Server) (stop func()) {
	pw.ctx, pw.srv, pw.done = ctx, srv, make(chan struct{})
	go func() {
		defer close(pw.done)
		_ = pw.w.Run(ctx)
	}()
	return pw.stop
}

// stop closes the watcher and waits for Run, if it was started; it may be
// called more than once, and on a nil watching.
func (pw *watching) stop() {
	if pw == nil {
		return
	}
	pw.once.Do(func() {
		_ = pw.w.Close()
		if pw.done != nil {
			<-pw.done
		}
	})
}
