package skillscmd

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core/server"
	"github.com/skills-mcp/skills-mcp/core/watch"
)

// startWatching rebuilds the index when files under the roots change (local
// mode): a burst of changes gives one rebuild after a 500 ms quiet period, with
// a 30 s rescan where watching fails. A failed rebuild keeps the previous index.
// indexedAt is when the index build started: a change made since then, before
// the watches are in place, is caught by the watcher's first walk.
func startWatching(ctx context.Context, c *content, srv *server.Server, indexedAt time.Time, log hclog.Logger) (stop func(), err error) {
	w, err := watch.New(watch.Options{
		Since:  indexedAt,
		Roots:  rootDirs(c.roots),
		Logger: log,
		OnChange: func() {
			snap, err := srv.Rebuild(ctx)
			if err != nil {
				log.Warn("reindex after a file change failed; keeping the previous index", "error", err)
				return
			}
			log.Info("skills reindexed after a file change", "skills", snap.Len())
		},
	})
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.Run(ctx)
	}()
	return func() { _ = w.Close(); <-done }, nil
}
