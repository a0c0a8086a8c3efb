// Package engine owns the local copy of the skills content repository (spec 000
// §9) inside the helper skills-mcp-git (Host): it clones SKILLS_REPO into the
// cache directory, fetches its branch and hard-resets the copy to the remote
// head (Initialize, ForceRefresh), one operation per run of the helper. The
// server's side, with the one syncer API the server uses (the periodic
// refresh, the listeners told of a moved head, the provenance of what is
// served), is internal/gitsync.
//
// Clones and fetches go through go-git. Local remotes (plain paths and file://
// URLs) are served by go-git's in-process server, installed once for the "file"
// scheme by newSyncer, instead of go-git's default file transport, which would run
// git-upload-pack. A git binary is run for one thing only, and only when it is on
// PATH: the credential helper fallback below.
//
// The cache directory belongs to the server: a sync leaves it exactly at the
// remote head, discarding local edits, untracked and ignored files. A directory
// that is not a clone of the configured repository is never modified: newSyncer's
// callers get gitsync.ErrForeignDir instead. Sync metadata lives in
// StateDir/sync-state.json, outside the clone.
//
// A GITHUB_TOKEN is sent as HTTP basic auth (user x-access-token), never written
// into the remote URL. Without a token or URL credentials, an http(s) remote is
// first accessed anonymously; if it answers 401 or 403, the machine's git
// credential helper is asked through `git credential fill` (never prompting, with
// a timeout) and the sync tried again once with its answer, which is kept in
// memory for the process and reported back with `git credential approve` or
// `reject` (spec 000 §9.2). Every error and log line is passed through a
// redactor that replaces the token, the helper's password and any URL userinfo
// with "***".
//
// options.Ref (SKILLS_REF) pins a tag or a commit: the copy moves only when
// the pin changes (pin.go). options.Verify (SKILLS_VERIFY=signed) serves only
// commits whose SSH signature verifies against an allowed-signers file
// (allowed_signers.go, sshsig.go, verify.go, served.go): a refused head is
// never checked out, and the last verified commit stays served.
//
// gitsync must not import internal/index or internal/server: it reports each sync
// in its gitsync.Result, which internal/gitsync receives from the helper.
package engine
