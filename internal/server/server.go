package server

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/scripts"
	"github.com/skills-mcp/skills-mcp/internal/search"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
)

// Name is the server name announced at initialize.
const Name = "skills-mcp"

// SyncStatus is what a git refresh reports to refresh_skills (spec 000 §8.6).
type SyncStatus struct {
	// Success is false when the fetch failed or another refresh was running.
	Success bool
	// CommitHash is the full hash of the content repo's HEAD.
	CommitHash string
	// FilesChanged counts files that differ between the old and new HEAD.
	FilesChanged int
	// LastSync is the time of the last successful sync, RFC 3339 with milliseconds.
	LastSync string
	// Verified, when commits are verified (SKILLS_VERIFY), says whether
	// CommitHash's signature verified; nil otherwise.
	Verified *bool
	// Refused names the commit the sync did not serve, its signer and why;
	// "" when none was refused.
	Refused string
}

// Syncer refreshes the content repo. ForceRefresh returns an error wrapping
// core.ErrRefreshInProgress when another refresh is running.
type Syncer interface {
	ForceRefresh(ctx context.Context) (SyncStatus, error)
}

// Options configures a Server. Nil fields take defaults: NopTracker, no runners,
// no git (local mode), a null logger.
type Options struct {
	// Index is the skill index; required.
	Index *index.Index
	// Config is the effective configuration.
	Config config.Config
	// Runners holds script runners keyed by extension (".sh").
	Runners *core.Registry[core.Runner]
	// WorkDirs decides where script runs work: a cwd only under the
	// operator's write roots, else a fresh scratch directory. Nil means no
	// write roots and scratch directories under os.TempDir(). The bound of
	// runs at once is Config.Scripts.MaxConcurrent (see scripts.NewRuns).
	WorkDirs *confine.WorkDirs
	// Tracker records analytics events.
	Tracker core.Tracker
	// Syncer is the git sync, nil in local mode.
	Syncer Syncer
	// Logger receives server logs (stderr).
	Logger hclog.Logger
	// Version is announced at initialize.
	Version string
	// Instructions are sent to clients at initialize ("" for the default text).
	Instructions string
	// ToolSets names the tool sets to serve (see ToolSetNames); empty means ["core"].
	ToolSets []string
	// IndexPending says Index has not been built yet: LoadIndex builds it,
	// and until it has, every request but initialize and ping waits for it.
	IndexPending bool
	// Sync, in git mode, reports the content repo's state for /healthz; nil
	// in local mode.
	Sync func() SyncState
	// Provenance, when set, says where the served skills come from: the
	// _meta key MetaProvenance of initialize, skills/list, skills/get and
	// get_skill answers. nil (or a nil answer) leaves them without it.
	Provenance func() *Provenance
	// Middleware wraps every request inside the server's own middleware
	// (recovery, the wait for the index, the rewriting of tool results), so
	// it sees each handler's own result: telemetry (internal/otelsetup).
	Middleware []mcp.Middleware
	// MemoryPolicy is the process's collector policy around the server's
	// memory-heavy builds (rebuild_memory.go): the command package hands
	// internal/gctune's unless the operator set GOGC. nil leaves the
	// collector alone.
	MemoryPolicy MemoryPolicy
}

// Server serves the skills tools over MCP.
type Server struct {
	opts        Options
	log         hclog.Logger
	mcp         *mcp.Server
	catalog     skillCatalog  // the skill tool's last registered description
	search      search.Engine // skills_search's full-text engine
	sk          skToolsState  // what the sk tools last described
	skills      *skillsext.Extension
	prompts     promptSet     // the skill prompts: their view and what was last announced
	refresh     refreshState  // refresh_skills' refresh that outlived its answer
	usage       *usageCounter // skills served since start, for the catalogue's order
	loaded      chan struct{} // closed once the index is built (at once unless Options.IndexPending)
	loadErr     error         // why LoadIndex failed; read after loaded is closed
	loadStarted atomic.Bool
	runs        *scripts.Runs // every script run: the bound of runs at once, the scratch directories
	// statelessHTTP is set once a stateless HTTP handler serves this server.
	statelessHTTP atomic.Bool
	// pageBytes bounds a page of skills_list and list_skills: MaxPageBytes
	// (tests lower it).
	pageBytes int
	// inputSchemas holds each tool's input schema by name, to word the
	// go-sdk's refusals of arguments (typedToolCalls).
	inputSchemas sync.Map
}

// New builds the MCP server and registers the tools of spec 000.
func New(opts Options) *Server {
	if opts.Tracker == nil {
		opts.Tracker = core.NopTracker{}
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.Runners == nil {
		opts.Runners = core.NewRegistry[core.Runner]("runner")
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Instructions == "" {
		opts.Instructions = DefaultInstructions(opts.ToolSets)
	}
	usage := &usageCounter{}
	opts.Tracker = usage.counting(opts.Tracker)
	s := &Server{opts: opts, log: opts.Logger, loaded: make(chan struct{}), usage: usage, pageBytes: MaxPageBytes,
		runs:   scripts.NewRuns(opts.Config.Scripts.MaxConcurrent, opts.WorkDirs, opts.Logger.Named("scripts")),
		search: search.New(search.Options{Build: buildReleasing(opts.MemoryPolicy)})}
	if !opts.IndexPending {
		close(s.loaded)
	}
	// Capabilities are what the server serves, no more: tools, the skills as
	// prompts with completion of their arguments, the skill:// resources.
	caps := &mcp.ServerCapabilities{
		Tools:       &mcp.ToolCapabilities{ListChanged: true},
		Prompts:     &mcp.PromptCapabilities{ListChanged: true},
		Completions: &mcp.CompletionCapabilities{},
	}
	skillsext.AddCapabilities(caps)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Version: opts.Version}, &mcp.ServerOptions{
		Instructions:      opts.Instructions,
		Logger:            newSDKLogger(opts.Logger.Named("mcp")),
		Capabilities:      caps,
		CompletionHandler: s.complete,
	})
	// The extension registers middleware of its own (resources/list is
	// answered there); a middleware added later wraps the ones added before,
	// so the server's recovery and its wait for the index come after it.
	s.skills = skillsext.New(skillsext.Options{Server: s.mcp, Index: opts.Index, MaxAssetBytes: opts.Config.Assets.MaxSizeBytes,
		Logger: s.log, Recover: recoverMiddleware(s.log)})
	// Options.Middleware (telemetry) sits just inside the rewriting of tool
	// results, so it sees each handler's own result, prompts included.
	s.mcp.AddReceivingMiddleware(slices.Concat(
		[]mcp.Middleware{validErrorData, recoverMiddleware(s.log), s.addProvenance, refuseUnadvertised, s.waitLoaded, encodeToolResults, s.typedToolCalls},
		opts.Middleware,
		[]mcp.Middleware{s.hideRefusedTools, s.servePrompts, httpguard.StatelessCapabilities(s.statelessHTTP.Load)})...)
	s.registerToolSets()
	s.registerPrompts()
	s.refreshSkTools() // records the starting fingerprint
	return s
}

// MCP returns the underlying go-sdk server (for transports and tests).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one session over t until the client disconnects or ctx ends.
// When ctx comes from stdio.WithDeferredResults (the caller chose a
// stdio.LineTransport), tool results of largeDeferred bytes or more are
// written by the connection from where they lie (stdio.Deferred).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Rebuild reindexes the skills (the index serialises concurrent rebuilds).
// After a successful rebuild the tool descriptions that list skills are
// refreshed; when one changed, the go-sdk notifies clients (tools/list_changed).
// So are the skill prompts (prompts/list_changed).
// The skill:// resources are synced too; when any was added, removed or
// changed, initialized clients get notifications/resources/list_changed.
func (s *Server) Rebuild(ctx context.Context) (*index.Snapshot, error) {
	snap, restore, err := s.rebuild(ctx)
	if err == nil {
		s.skills.SyncResources()
		releaseOldSnapshot(s.opts.MemoryPolicy)
	}
	restore()
	return snap, err
}

// rebuild is Rebuild without the resource sync, which the caller runs: the
// sync walks the new snapshot's resource directories whose listings a client
// could have read in the old one (all of them once a client listed the
// resources: about 50 ms at 10,000 skills), and refresh_skills answers
// without waiting for it. The collector's
// goal is lowered for the rebuild (tightenGCForRebuild) until the caller
// calls restore, once the old snapshot is released.
func (s *Server) rebuild(ctx context.Context) (snap *index.Snapshot, restore func(), err error) {
	percent := firstBuildGCPercent
	if s.snapshot().Len() > 0 {
		percent = refreshGCPercent // two snapshots live until the swap
	}
	restore = tightenGCForRebuild(s.opts.MemoryPolicy, percent)
	snap, err = s.opts.Index.Rebuild(ctx)
	if err == nil {
		s.RefreshToolDescriptions()
		s.syncPrompts()
	}
	return snap, restore, err
}

func (s *Server) snapshot() *index.Snapshot { return s.opts.Index.Snapshot() }
