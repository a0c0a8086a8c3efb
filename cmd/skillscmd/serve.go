package skillscmd

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	gitsync "github.com/skills-mcp/skills-mcp/internal/gitsync" // syncs in the helper skills-mcp-git (issue 19)
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
)

func serve(ctx context.Context, a *app, args []string, stdin io.ReadCloser, stdout, stderr io.Writer) error {
	getenv, log := a.getenv, a.log
	fs := newFlagSet("serve", "serve [flags]", "Serve skills over MCP on stdin/stdout (the default command); --http HOST:PORT serves Streamable HTTP at /mcp instead.", stderr)
	src := sourceFlags{gitWait: gitStartWait}
	src.register(fs, getenv)
	tools := fs.String("tools", envOr(getenv, "SKILLS_TOOLS", server.ToolSetCore),
		"comma-separated tool sets to serve: "+strings.Join(server.ToolSetNames(), ", ")+" (default $SKILLS_TOOLS or core)")
	noWatch := fs.Bool("no-watch", false, "do not watch the skill directories for changes")
	frozenLock := fs.String("frozen", getenv(envLock), "serve only the skills whose files match this lock file (skills-mcp lock) (default $SKILLS_LOCK)")
	var hf httpFlags
	hf.register(fs, getenv)
	var cf confineFlags
	cf.register(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return flagError(withFlagHint(fs, err))
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected argument %q", fs.Arg(0))
	}
	if err := hf.check(fs); err != nil {
		return err
	}
	if *frozenLock != "" {
		f, err := readLock(*frozenLock, "--frozen / "+envLock)
		if err != nil {
			return err
		}
		src.frozen = f
		log.Info("serving only the skills that match the lock file", "lock", *frozenLock, "digest", src.frozen.digest)
	}
	toolSets := splitList(*tools)
	if err := server.CheckToolSets(toolSets); err != nil {
		return usagef("--tools / SKILLS_TOOLS: %w", err)
	}
	c, err := openSources(ctx, a, src)
	if err != nil {
		return err
	}
	// With the default tools nothing the client is shown at initialize comes
	// from the skills: the index is built while the handshake runs.
	later := server.CanLoadLater(toolSets)
	// Each long-lived part is recorded as it starts; they stop in the
	// reverse order within one exit budget (components).
	var parts components
	stopping := newStopClock(ctx)
	defer func() { parts.stop(stopping.deadline(), log) }()
	var live *watching
	if c.git == nil && !*noWatch {
		// Before the first build, which places the watches as it reads.
		live = prepareWatching(c, time.Now(), log.Named("watch"))
		parts.started("watcher", func(time.Time) { live.stop() })
	}
	if !later {
		snap, err := c.idx.Rebuild(ctx)
		if err != nil && ctx.Err() != nil {
			// A signal or the end of stdin stopped the build: a shutdown, not a failure.
			log.Debug("indexing stopped: shutting down", "error", err)
			return nil
		}
		if err != nil {
			return indexError(c.roots, err)
		}
		logIndexed(log, c.roots, snap.Len())
	}
	sx, err := setupScripts(a, c, cf)
	if err != nil {
		return err
	}
	parts.started("runners", func(time.Time) { sx.close() })
	cfg, stateDir, runners, work := sx.cfg, sx.stateDir, sx.runners, sx.work
	// Telemetry before analytics, so that at the exit (issue 26, item 6) the
	// events go to the buffer and the endpoint first, then telemetry exports
	// with what remains of the budget.
	telemetryMiddleware, stopTelemetry, err := startTelemetry(ctx, getenv, hf.addr != "", log.Named("telemetry"))
	if err != nil {
		return err
	}
	parts.started("telemetry", stopTelemetry)
	an, err := startAnalytics(ctx, a, c.loaded, stateDir)
	if err != nil {
		return err
	}
	parts.started("analytics", func(deadline time.Time) { an.close(deadline, log) })
	hf.requestIDs = len(telemetryMiddleware) > 0
	middleware := append([]mcp.Middleware{cancelOnStop(ctx)}, telemetryMiddleware...)
	opts := server.Options{Index: c.idx, Config: cfg, Runners: runners, WorkDirs: work, Logger: log, Version: version, Tracker: an.tracker, ToolSets: toolSets, IndexPending: later, Middleware: middleware, MemoryPolicy: a.memory}
	if c.git != nil {
		opts.Syncer = gitSyncer{s: c.git.syncer, base: ctx}
		opts.Sync = func() server.SyncState {
			return server.SyncState{Commit: c.git.syncer.Head(), LastSync: c.git.syncer.LastSync()}
		}
	}
	opts.Provenance = provenanceOf(c.git, src.frozen)
	srv := server.New(opts)
	if c.git != nil {
		// Spec 000 §3.1: the content-updated event rebuilds the index.
		c.git.syncer.OnUpdate(func(gitsync.Result) {
			if _, err := srv.Rebuild(ctx); err != nil {
				log.Warn("reindex after git update failed; keeping the previous index", "error", err)
			}
		})
		if c.git.pending != nil {
			// The first sync outlived the start wait: rebuild when it ends.
			go func() {
				select {
				case <-c.git.pending:
				case <-ctx.Done():
					return
				}
				if _, err := srv.Rebuild(ctx); err != nil {
					log.Warn("reindex after the first git sync failed; keeping the previous index", "error", err)
				}
			}()
		}
		if cfg.Refresh.Enabled {
			c.git.syncer.StartPeriodic(ctx, time.Duration(cfg.Refresh.IntervalMinutes)*time.Minute)
			parts.started("git refresher", func(time.Time) { c.git.syncer.Stop() })
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watchAfterIndex := func() (stop func()) {
		if live == nil {
			return func() {}
		}
		return live.start(ctx, srv)
	}
	var loadErr error
	loaded := make(chan struct{})
	if !later {
		close(loaded)
		defer watchAfterIndex()()
	} else {
		var stopWatch func()
		go func() {
			defer close(loaded)
			snap, err := srv.LoadIndex(ctx)
			if err != nil && ctx.Err() != nil {
				// A signal or the end of stdin stopped the build: a shutdown, not a failure.
				log.Debug("indexing stopped: shutting down", "error", err)
				return
			}
			if err != nil {
				loadErr = indexError(c.roots, err)
				log.Error("the skills index could not be built; stopping", "error", err)
				cancel()
				return
			}
			logIndexed(log, c.roots, snap.Len())
			stopWatch = watchAfterIndex()
		}()
		defer func() {
			cancel()
			<-loaded
			if stopWatch != nil {
				stopWatch()
			}
		}()
	}
	if hf.addr != "" {
		if c.git != nil {
			hf.ready = c.git.ready
		}
		err := serveHTTP(ctx, srv, hf, cfg.HTTP, log.Named("http"))
		cancel()
		<-loaded
		return cmp.Or(loadErr, err)
	}
	if isTerminal(stdin) {
		repo := ""
		if c.git != nil {
			repo = src.repo
		}
		terminalHint(stderr, c.roots, repo)
	}
	t := &stdio.LineTransport{In: stdin, Out: stdout, Logger: log.Named("stdio"), DrainAfter: srv.Loaded()}
	err = srv.Run(stdio.WithDeferredResults(ctx), t) // this transport writes large results from where they lie
	cancel()
	<-loaded // a build still running ends before the process does; its error is the process's
	if loadErr != nil {
		return loadErr
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("serving over stdio: %w", err)
	}
	log.Debug("server stopped")
	return nil
}

// logIndexed says how many skills the first build found: a warning when
// none, as validate fails on a directory without any, since every get_skill
// would answer no_match and a wrong SKILLS_DIR would go unnoticed.
func logIndexed(log hclog.Logger, roots []index.Root, n int) {
	if n == 0 {
		log.Warn("no skills found: every get_skill answers no_match until a skill is added (a folder with a SKILL.md, "+
			"or Markdown with description and keywords); check the directory, or run `skills-mcp validate DIR`", "roots", rootList(roots))
		return
	}
	log.Info("skills indexed", "roots", rootList(roots), "skills", n)
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// splitList splits a comma list, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// flagError maps a flag-parsing failure to exit 2 (help is not a failure).
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usagef("%w", err)
}

// stateDirectory is where the server keeps its own state (analytics buffer,
// caches, the git clone): $SKILLS_STATE_DIR, else ~/.skills-mcp.
func stateDirectory(getenv func(string) string) (string, error) {
	if dir := getenv("SKILLS_STATE_DIR"); dir != "" {
		return filepath.Abs(dir)
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", usagef("cannot find a home directory for ~/.skills-mcp: set HOME or SKILLS_STATE_DIR")
		}
		home = h
	}
	return filepath.Join(home, ".skills-mcp"), nil
}
