// Package watch owns live reload of the skill roots: it notices that something
// under a root changed and asks for a rebuild through one callback,
// Options.OnChange. It knows nothing about skills, the index or MCP; it must not
// import internal/index, internal/server or the MCP SDK.
//
// Two detectors feed one debouncer:
//
//   - fsnotify (inotify on Linux) watches every directory under each root,
//     adding directories as they are created. Dot-directories (.git, .cache…)
//     are never watched and events on dot-named entries are ignored, as the
//     index ignores them too.
//   - A fallback rescan (Options.Rescan, 30 s by default, the refresh cycle of
//     spec 002) fingerprints the trees (path, size, mtime and mode of every
//     non-dot entry) and reports a change when the fingerprint moves. It covers
//     what inotify misses: an exhausted watch limit, a root created after start,
//     network file systems, or no inotify at all.
//
// Run takes the baseline fingerprint when it begins, adding the watches in the
// same walk (each directory is watched before it is read): New walks nothing,
// so a server can answer its first request while Run walks a large tree in
// its own goroutine. A change made after Run has begun is reported; one made
// before is part of the baseline, unless Options.Since says it came after the
// index was read.
//
// With Options.Prewatched, the reader of the trees places the watches as it
// reads (Watcher.Watch, called by internal/index's rebuild through
// Index.WatchDirs, before each directory is read), and Run walks nothing at
// start: the trees are read once, not once by the index and again here. The
// baseline fingerprint is then taken by the first rescan walk, which reports
// an entry modified since Options.Since.
//
// The debouncer restarts a quiet-period timer (Options.Debounce, 500 ms by
// default) on every event and calls OnChange once when it expires, so a burst
// such as a git checkout gives one rebuild. OnChange never runs concurrently
// with itself; a change that arrives while it runs gives another call after it.
package watch
