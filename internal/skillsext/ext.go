package skillsext

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// ID identifies the MCP skills extension (SEP-2640) in
// capabilities.extensions.
const ID = "io.modelcontextprotocol/skills"

// Methods of the skills extension.
const (
	methodSkillsList    = "skills/list"
	methodSkillsGet     = "skills/get"
	methodDirectoryRead = "resources/directory/read"
)

// Notifications the extension gates.
const (
	notificationInitialized         = "notifications/initialized"
	notificationResourceListChanged = "notifications/resources/list_changed"
	notificationToolListChanged     = "notifications/tools/list_changed"
	notificationPromptListChanged   = "notifications/prompts/list_changed"
)

// skillsTTL is the ttlMs of skills/list, skills/get and resources/read: how
// long a host may treat an answer as current. Digests, not this hint, protect
// content.
const skillsTTL = time.Minute

// AddCapabilities declares the resources capability (with list_changed)
// and the skills extension with directoryRead on caps.
func AddCapabilities(caps *mcp.ServerCapabilities) {
	caps.Resources = &mcp.ResourceCapabilities{ListChanged: true}
	caps.AddExtension(ID, map[string]any{"directoryRead": true})
}

// Options configures an Extension.
type Options struct {
	// Server is the go-sdk server the extension is served on; required.
	Server *mcp.Server
	// Index holds the skills served; required.
	Index *index.Index
	// MaxAssetBytes is the configured asset limit: resources/read serves up
	// to the larger of it and the extension's 16 MiB per skill.
	MaxAssetBytes int64
	// Logger receives the extension's logs; nil for none.
	Logger hclog.Logger
	// Recover, when set, wraps the extension's own middleware (resources/list
	// is answered there), so that a panic in it is answered as the server
	// answers any other: the server's panic recovery.
	Recover mcp.Middleware
}

// Extension serves the skills of the index over the MCP skills
// extension: every skill file as a skill:// resource (one resource template
// whose handler reads the current snapshot, and resources/list answered from
// it), skills/list, skills/get and resources/directory/read (see
// docs/SKILLS-EXTENSION.md).
type Extension struct {
	mcp     *mcp.Server
	idx     *index.Index
	log     hclog.Logger
	maxRead int64          // the largest file resources/read serves
	recover mcp.Middleware // the server's panic recovery around the extension's middleware

	current atomic.Pointer[skillsView] // the view of the latest snapshot seen
	buildMu sync.Mutex                 // one view build at a time

	syncMu sync.Mutex      // one resource sync at a time
	synced *index.Snapshot // the snapshot whose resources were last announced (or served from the start)

	readyMu sync.Mutex
	ready   map[*mcp.ServerSession]bool // legacy sessions that sent notifications/initialized
}

// New serves the skills of opts.Index on opts.Server: it adds the
// extension's methods, middleware and resource template to the go-sdk
// server. Middleware the server adds later wraps the extension's. Nothing
// is computed per skill here: the view of a snapshot is built when a request
// first needs it, and the snapshot served at start is compared with the next
// one at the first rebuild.
func New(opts Options) *Extension {
	maxRead := int64(index.ExtensionMaxBytes)
	if opts.MaxAssetBytes > maxRead {
		maxRead = opts.MaxAssetBytes
	}
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	rec := opts.Recover
	if rec == nil {
		rec = func(next mcp.MethodHandler) mcp.MethodHandler { return next }
	}
	e := &Extension{
		mcp: opts.Server, idx: opts.Index, log: log.Named("skills-ext"), maxRead: maxRead, recover: rec,
		ready: map[*mcp.ServerSession]bool{},
	}
	e.register()
	return e
}

// register adds the extension's methods, middleware and resource template to
// the go-sdk server.
func (e *Extension) register() {
	mustAddMethod(e.mcp, methodSkillsList, e.listSkills)
	mustAddMethod(e.mcp, methodSkillsGet, e.getSkill)
	mustAddMethod(e.mcp, methodDirectoryRead, e.readDirectory)
	e.mcp.AddReceivingMiddleware(e.trackInitialized, func(next mcp.MethodHandler) mcp.MethodHandler {
		return e.recover(e.serveResourceList(next))
	})
	e.mcp.AddSendingMiddleware(e.gateListChanged)
	e.synced = e.idx.Snapshot()
	e.addTemplate()
}

// mustAddMethod registers a custom method; it panics only on a name that
// shadows a standard MCP method, a programming error.
func mustAddMethod[P interface {
	*T
	mcp.Params
}, R mcp.Result, T any](srv *mcp.Server, method string, h func(context.Context, *mcp.ServerSession, P) (R, error)) {
	if err := mcp.AddReceivingCustomMethod(srv, method, h); err != nil {
		panic(err)
	}
}

// view returns the view of the index's current snapshot, building it on first use.
func (e *Extension) view() *skillsView {
	snap := e.idx.Snapshot()
	if v := e.current.Load(); v != nil && v.snap == snap {
		return v
	}
	e.buildMu.Lock()
	defer e.buildMu.Unlock()
	snap = e.idx.Snapshot()
	if v := e.current.Load(); v != nil && v.snap == snap {
		return v
	}
	v := buildSkillsView(snap, e.log)
	e.current.Store(v)
	return v
}

// cacheable is the cache hint of the extension's results.
func (e *Extension) cacheable() mcp.Cacheable {
	return mcp.Cacheable{TTLMs: int(skillsTTL / time.Millisecond), CacheScope: "public"}
}

// trackInitialized records the legacy sessions that have sent
// notifications/initialized, forgetting those the server no longer holds.
func (e *Extension) trackInitialized(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != notificationInitialized || err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return res, err
		}
		live := map[*mcp.ServerSession]bool{}
		for s := range e.mcp.Sessions() {
			live[s] = true
		}
		e.readyMu.Lock()
		defer e.readyMu.Unlock()
		for s := range e.ready {
			if !live[s] {
				delete(e.ready, s)
			}
		}
		e.ready[ss] = true
		return res, err
	}
}

// subscribed reports a notification sent on a subscriptions/listen stream:
// the go-sdk stamps the listen request's ID into its _meta.
func subscribed(req mcp.Request) bool {
	p := req.GetParams()
	if p == nil {
		return false
	}
	_, ok := p.GetMeta()[mcp.MetaKeySubscriptionID]
	return ok
}

// gateListChanged drops notifications/resources/list_changed,
// notifications/tools/list_changed and notifications/prompts/list_changed to a session that has not finished
// initializing (file 001: only after the handshake): the go-sdk notifies every
// legacy session, initialized or not. A notification on a subscriptions/listen stream (the
// 2026-07-28 protocol, which has no initialized notification) always passes.
func (e *Extension) gateListChanged(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == notificationResourceListChanged || method == notificationToolListChanged || method == notificationPromptListChanged {
			if !subscribed(req) {
				ss, _ := req.GetSession().(*mcp.ServerSession)
				e.readyMu.Lock()
				ready := e.ready[ss]
				e.readyMu.Unlock()
				if !ready {
					e.log.Debug("not notifying a session that has not initialized", "notification", method)
					return nil, nil
				}
			}
		}
		return next(ctx, method, req)
	}
}
