package gitsync

import "time"

// Source is the content repo and how to sync it: the settings the server's
// Options, the helper's Request and the helper's syncer (internal/gitsync/engine)
// share, written once. Zero values mean defaults where one exists.
type Source struct {
	// URL is SKILLS_REPO: an https URL, an ssh URL, a file:// URL or a
	// local path. Userinfo in an http(s) URL is used as credentials and
	// never stored.
	URL string `json:"url"`
	// Branch is the branch to follow; empty means DefaultBranch.
	Branch string `json:"branch,omitempty"`
	// Ref is SKILLS_REF: a tag (`v1.2`, `refs/tags/v1.2`) or a full commit
	// hash the copy stays at. When set it wins over Branch, which is then
	// not fetched: the copy moves only when Ref changes.
	Ref string `json:"ref,omitempty"`
	// Verify is SKILLS_VERIFY: "" serves any commit, VerifySigned only one
	// whose SSH signature verifies against AllowedSigners.
	Verify string `json:"verify,omitempty"`
	// AllowedSigners is SKILLS_ALLOWED_SIGNERS: the path of an
	// allowed-signers file (ssh-keygen(1), ALLOWED SIGNERS), which the
	// helper reads.
	AllowedSigners string `json:"allowed_signers,omitempty"`
	// Token is GITHUB_TOKEN, sent as HTTP basic auth to http(s) remotes; it
	// reaches the helper on its stdin, never in its arguments or
	// environment. Without it (and without URL credentials) an http(s)
	// remote that refuses anonymous access is retried once with the
	// credentials of the machine's git credential helper (`git credential
	// fill`, when git is on PATH).
	Token string `json:"token,omitempty"`
	// Dir is the local clone (~/.skills-mcp/content or $SKILLS_CACHE_DIR).
	// Required.
	Dir string `json:"dir"`
	// StateDir holds sync-state.json. It must not be Dir nor inside it.
	// Empty means the last sync time is kept in memory only.
	StateDir string `json:"state_dir,omitempty"`
	// Timeout bounds each network operation (a clone, a fetch, each call of
	// the git credential helper): a remote that accepts the connection and
	// never answers fails the sync after it (issue 16, item 5). Zero means
	// DefaultTimeout.
	Timeout time.Duration `json:"timeout,omitempty"`
}
