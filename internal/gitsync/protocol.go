package gitsync

import (
	"context"
	"errors"
	"maps"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

// HelperName is the file name of the helper executable.
const HelperName = "skills-mcp-git"

// Protocol is the version of Request and Response, in every Hello: raise it
// whenever they change, so that a helper and a server that would misread
// each other refuse each other instead.
const Protocol = 1

// DefaultBranch is the branch synced when Options.Branch is empty.
const DefaultBranch = "main"

// DefaultTimeout bounds one git network operation when Options.Timeout is
// zero: 20 s, so that a sync the remote leaves hanging ends, helper margin
// included, within the 30 s refresh_skills waits before it answers, itself
// under the 60 s request timeout of usual MCP clients (issue 26, item 12).
const DefaultTimeout = 20 * time.Second

// Sentinel errors; callers choose behaviour with errors.Is. internal/gitsync/engine's
// are these.
var (
	// ErrUsingCache: the sync failed but a previous clone exists and is served
	// unchanged. Result.CommitHash names the cached head.
	ErrUsingCache = errors.New("sync failed, serving the cached copy")
	// ErrForeignDir: the cache directory exists, is not empty, and is not a clone
	// of the configured repository. It is left untouched.
	ErrForeignDir = errors.New("cache directory is not a clone of the skills repository")
	// ErrRefNotFound: SKILLS_REF names no tag and no commit of the remote.
	ErrRefNotFound = errors.New("the pinned ref is not on the remote")
	// ErrBranchNotFound: the remote has no branch SKILLS_BRANCH names.
	ErrBranchNotFound = errors.New("the branch is not on the remote")
)

// Result describes one sync (spec 000 §8.6 response, git mode).
type Result struct {
	// Success is true when the copy now matches the remote head.
	Success bool `json:"success"`
	// Updated is true when HEAD moved (a fresh clone counts as moved).
	Updated bool `json:"updated"`
	// CommitHash is the full hex of HEAD after the sync (the cached head on failure).
	CommitHash string `json:"commit_hash,omitempty"`
	// FilesChanged counts the files differing between the old and new head trees,
	// renames counting once; 0 when HEAD did not move.
	FilesChanged int `json:"files_changed,omitempty"`
	// LastSync is the time of the last successful sync (zero if none).
	LastSync time.Time `json:"last_sync,omitzero"`
	// Verified is true when CommitHash's signature verified against the
	// allowed signers (SKILLS_VERIFY=signed).
	Verified bool `json:"verified,omitempty"`
	// Signer names the allowed signer of CommitHash when Verified.
	Signer string `json:"signer,omitempty"`
	// Refused, when not nil, is the commit this sync did not serve and why.
	Refused *Refusal `json:"refused,omitempty"`
	// Target is the commit the pin (SKILLS_REF) named at this sync, or the
	// branch head this sync refused; "" otherwise.
	Target string `json:"target,omitempty"`
}

// Operations of the helper.
const (
	// OpCheck checks the options and does nothing else.
	OpCheck = "check"
	// OpInitialize is Syncer.Initialize: clone or open, then sync.
	OpInitialize = "initialize"
	// OpRefresh is Syncer.ForceRefresh.
	OpRefresh = "refresh"
	// OpVerifyCache is Syncer.VerifyCache: no network.
	OpVerifyCache = "verify_cache"
)

// Request is one operation, the helper's whole stdin.
type Request struct {
	// Hello is the server's: the helper refuses the request unless it is its
	// own (childproc.CheckServer).
	Hello *childproc.Hello `json:"hello,omitempty"`
	Op    string           `json:"op"`
	// Source is the content repo and how to sync it, its fields inline.
	Source
	// LogLevel is the hclog level of the helper's stderr.
	LogLevel string `json:"log_level,omitempty"`
}

// Response is the helper's whole stdout: its Hello, the operation's result
// and error, and the syncer's HEAD and last sync time after it. The server
// reads nothing of an answer whose Hello is not its own
// (childproc.CheckHelper).
type Response struct {
	Hello    *childproc.Hello `json:"hello,omitempty"`
	Result   Result           `json:"result"`
	Fault    *childproc.Fault `json:"fault,omitempty"`
	Head     string           `json:"head,omitempty"`
	LastSync time.Time        `json:"last_sync,omitzero"`
}

// Kinds returns the sentinel errors an operation's error may wrap, by name,
// so errors.Is holds across the process boundary: a copy, so no importer can
// change what the other side of the boundary understands.
func Kinds() map[string]error { return maps.Clone(kinds) }

// kinds is the table Kinds copies.
var kinds = map[string]error{
	"using_cache":         ErrUsingCache,
	"foreign_dir":         ErrForeignDir,
	"ref_not_found":       ErrRefNotFound,
	"branch_not_found":    ErrBranchNotFound,
	"unverified":          ErrUnverified,
	"refused":             ErrRefused,
	"invalid_argument":    core.ErrInvalidArgument,
	"refresh_in_progress": core.ErrRefreshInProgress,
	"mismatch":            childproc.ErrMismatch,
	"canceled":            context.Canceled,
	"deadline_exceeded":   context.DeadlineExceeded,
}
