// Package gitsync is git mode's content repo as the server sees it: a Syncer
// whose every sync runs in a child process, skills-mcp-git
// (internal/gitsync/engine.Host, the engine's only export), the only
// executable that links go-git. The two sides are the two ends of one
// protocol (Request, Response and the sentinel errors, defined here and
// imported by the engine).
// A server that serves a local directory carries none of go-git, its crypto
// and its transports (issue 19: resident size follows what is linked). The
// protocol is internal/childproc's: one JSON request on stdin, one JSON
// response on stdout, JSON log lines on stderr relayed to the server's log.
//
// The child opens the clone afresh for each sync and keeps nothing between
// them; the sync state (last sync time) is in the state directory, as it
// was, and HEAD is read from the clone. Periodic refresh, the update
// listeners and the one-refresh-at-a-time rule stay in the server.
package gitsync
