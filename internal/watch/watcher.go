package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// Defaults of Options.
const (
	// DefaultDebounce is the quiet period used when Options.Debounce is zero.
	DefaultDebounce = 500 * time.Millisecond
	// DefaultRescan is the fallback rescan period used when Options.Rescan is
	// zero: the 30-second refresh cycle of spec 002.
	DefaultRescan = 30 * time.Second
)

// Options configures a Watcher. The zero value of each field but Roots and
// OnChange means its default.
type Options struct {
	// Roots are the directories watched recursively. A missing root is
	// ignored until the rescan finds it.
	Roots []string
	// Debounce is the quiet period after the last event before OnChange is
	// called; zero or negative means DefaultDebounce.
	Debounce time.Duration
	// Rescan is the period of the fallback fingerprint rescan; zero means
	// DefaultRescan, negative turns the rescan off. While every tree is
	// watched the rescan walks only every healthyRescanEvery periods (5 min
	// by default): it then only covers what the watches cannot see.
	Rescan time.Duration
	// OnChange is called once per burst of changes, never concurrently with
	// itself, from a goroutine of the Watcher. It is typically a full rebuild.
	// A panic in it is recovered and logged.
	OnChange func()
	// Logger receives warnings (watch failures, fsnotify errors); nil
	// discards them.
	Logger hclog.Logger
	// Since, when set, is when the state OnChange keeps up to date was read
	// (the start of the index build). Run's first walk, which watches start
	// from, cannot tell a change made between Since and that walk from the
	// state read; so when it finds an entry modified since then, it reports
	// a change once the watches are in place.
	Since time.Time
	// Prewatched says the caller reads the trees itself and calls Watch on
	// each directory just before reading it (internal/index's rebuild, through
	// Index.WatchDirs): Run then does not walk the trees at start, which
	// would read them a second time. Its baseline fingerprint is left to the
	// first rescan walk, which reports an entry modified since Since (a
	// change no watch could see, as on a network file system). Set Since with
	// it. Without fsnotify, Run walks at start as without Prewatched.
	Prewatched bool
}

// option adjusts a Watcher for tests.
type option func(*Watcher)

// Watcher reports changes under the skill roots through Options.OnChange.
// Build one with New, drive it with Run, stop it with Close or by ending Run's
// context.
type Watcher struct {
	roots    []string // absolute, as given (not symlink-resolved)
	since    time.Time
	rescan   time.Duration
	onChange func()
	log      hclog.Logger
	noNotify bool
	// prewatched is Options.Prewatched; pre what Watch did.
	prewatched bool
	pre        prewatched

	fsw      *fsnotify.Watcher // nil when fsnotify is unavailable
	debounce *debouncer
	last     lastPrint // fingerprint of the state last reported or seen

	// realRoots holds the symlink-resolved roots watched so far; only Run's
	// goroutine touches it.
	realRoots map[string]bool
	// degraded says some of the trees are not fully watched (no fsnotify, a
	// root missing or removed, a watch that failed): the rescan then walks at
	// every tick; otherwise at one tick in healthyRescanEvery. Only Run's
	// goroutine touches it, as skipped.
	degraded bool
	skipped  int
	walks    int // rescans that walked the trees

	mu        sync.Mutex
	started   bool
	stop      chan struct{} // closed by Close
	closeOnce sync.Once
	loopDone  chan struct{} // closed when Run's loop has ended and fsnotify is closed
	ready     chan struct{} // closed when Run has added its initial watches (tests wait on it)
}

// New checks opts and opens the fsnotify watcher; it does not walk the roots,
// so it costs the same whatever their size (Run takes the baseline). When
// fsnotify cannot be opened it logs a warning and the Watcher relies on the
// rescan alone. It fails when Roots is empty or OnChange is nil.
func New(opts Options) (*Watcher, error) {
	return newWatcher(opts)
}

func newWatcher(opts Options, extra ...option) (*Watcher, error) {
	if opts.OnChange == nil {
		return nil, fmt.Errorf("creating skills watcher: %w: OnChange is nil", core.ErrInvalidArgument)
	}
	if len(opts.Roots) == 0 {
		return nil, fmt.Errorf("creating skills watcher: %w: no roots to watch", core.ErrInvalidArgument)
	}
	w := &Watcher{
		since:      opts.Since,
		prewatched: opts.Prewatched,
		pre:        prewatched{watched: make(map[string]bool)},
		onChange:   opts.OnChange,
		log:        opts.Logger,
		rescan:     opts.Rescan,
		realRoots:  make(map[string]bool),
		stop:       make(chan struct{}),
		loopDone:   make(chan struct{}),
		ready:      make(chan struct{}),
	}
	if w.log == nil {
		w.log = hclog.NewNullLogger()
	}
	if w.rescan == 0 {
		w.rescan = DefaultRescan
	}
	delay := opts.Debounce
	if delay <= 0 {
		delay = DefaultDebounce
	}
	seen := make(map[string]bool)
	for _, r := range opts.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("creating skills watcher: resolving root %s: %w", r, err)
		}
		if !seen[abs] {
			seen[abs] = true
			w.roots = append(w.roots, abs)
		}
	}
	for _, o := range extra {
		o(w)
	}
	w.debounce = newDebouncer(delay, w.fire, realAfterFunc, w.log)
	if !w.noNotify {
		fsw, err := fsnotify.NewWatcher()
		if err != nil {
			w.log.Warn("file watching unavailable, relying on the periodic rescan", "error", err, "rescan", w.rescanText())
		} else {
			w.fsw = fsw
		}
	}
	return w, nil
}

// Run watches until ctx is done or Close is called, then returns nil after
// any OnChange call in progress has returned. Run on a closed Watcher returns
// nil at once; a second Run is an error.
//
// Run first walks the roots once, taking the baseline fingerprint and adding a
// watch on each directory before reading it: a change made after Run has
// begun is reported, by a watch or by the walk itself. A change made before
// Run begins is part of the baseline (unless it is after Options.Since): start
// Run right after the index is built (in a goroutine of its own, the walk of a
// large tree takes a while).
func (w *Watcher) Run(ctx context.Context) error {
	w.mu.Lock()
	if w.started {
		w.mu.Unlock()
		return errors.New("running skills watcher: Run called twice")
	}
	w.started = true
	w.mu.Unlock()

	w.loop(ctx)
	w.debounce.stop()
	if w.fsw != nil {
		_ = w.fsw.Close()
	}
	close(w.loopDone)
	w.debounce.wait()
	return nil
}

func (w *Watcher) loop(ctx context.Context) {
	select {
	case <-w.stop:
		return
	default:
	}
	var events <-chan fsnotify.Event
	var errs <-chan error
	var changedSince bool
	switch {
	case w.fsw != nil && w.prewatched:
		events, errs = w.fsw.Events, w.fsw.Errors
		w.adoptPrewatched()
	case w.fsw != nil:
		events, errs = w.fsw.Events, w.fsw.Errors
		changedSince = w.baselineAndWatch()
	default:
		var baseline uint64
		baseline, changedSince = fingerprintWalk(w.roots, w.since, nil)
		w.last.swap(baseline)
	}
	if changedSince {
		w.log.Debug("files changed since the index was read; rebuilding once")
		w.debounce.trigger()
	}
	close(w.ready)
	var tick <-chan time.Time
	if w.rescan > 0 {
		t := time.NewTicker(w.rescan)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.stop:
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			w.handleEvent(ev)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.handleError(err)
		case <-tick:
			w.rescanOnce()
		}
	}
}

// Close stops the Watcher: Run's loop ends and fsnotify is closed before Close
// returns; an OnChange call in progress may still be finishing (Run returns
// after it). Close may be called from OnChange, and more than once.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() { close(w.stop) })
	w.mu.Lock()
	started := w.started
	w.mu.Unlock()
	if started {
		<-w.loopDone
		return nil
	}
	w.debounce.stop()
	if w.fsw != nil {
		if err := w.fsw.Close(); err != nil {
			return fmt.Errorf("closing skills watcher: %w", err)
		}
	}
	return nil
}

// handleEvent turns one fsnotify event into a trigger, watching new
// directories on the way.
func (w *Watcher) handleEvent(ev fsnotify.Event) {
	if ev.Op == 0 {
		return
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.pre.forget(ev.Name) // a directory of that name must be watched again
	}
	if w.realRoots[ev.Name] {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			delete(w.realRoots, ev.Name) // its watch is gone; the rescan re-adds it
			w.degraded = true
		}
		w.debounce.trigger()
		return
	}
	if strings.HasPrefix(filepath.Base(ev.Name), ".") {
		return
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			w.logTree(ev.Name, watchTree(w.fsw, ev.Name))
		}
	}
	w.debounce.trigger()
}

// handleError logs an fsnotify error. After a queue overflow events were
// lost: the trees are walked again and a change is reported.
func (w *Watcher) handleError(err error) {
	w.log.Warn("file watching error", "error", err)
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.pre.forgetAll()
		w.watchRoots()
		w.debounce.trigger()
	}
}

// healthyRescanEvery is how many rescan periods pass between two walks while
// every tree is fully watched: then the walk only covers what inotify cannot
// see (edits made on another machine of a network file system), and at
// 10,000 skills each walk costs about half a second of CPU, which every 30 s
// kept an idle server at 2.5% of a core.
const healthyRescanEvery = 10

// rescanOnce compares the fingerprint with the last one and reports a change.
// A change also re-adds the watches, which picks up roots created since and
// directories whose watch failed. While every tree is watched it walks only
// at one tick in healthyRescanEvery.
//
// Until a baseline is known (Options.Prewatched: none is taken at start) the
// walk takes it, and reports a change when an entry was modified since
// Options.Since.
func (w *Watcher) rescanOnce() {
	w.reportWatchFailures()
	if w.fsw != nil && !w.degraded && w.skipped < healthyRescanEvery-1 {
		w.skipped++
		return
	}
	w.skipped = 0
	w.walks++
	var since time.Time
	if !w.last.isKnown() {
		since = w.since
	}
	fp, changedSince := fingerprintWalk(w.roots, since, nil)
	if known, changed := w.last.swapKnown(fp); !(changed && known || changedSince && !known) {
		return
	}
	w.log.Debug("rescan found changes")
	if w.fsw != nil {
		w.watchRoots()
	}
	w.debounce.trigger()
}

// baselineAndWatch is Run's first walk: it takes the baseline fingerprint and,
// as watchRoots would, adds a watch on every directory of every root before
// reading it, in one walk of the trees rather than two. A change made while it
// walks is seen by the walk or reported by a watch. It reports whether an
// entry changed since Options.Since.
func (w *Watcher) baselineAndWatch() (changedSince bool) {
	results := make(map[string]*treeResult, len(w.roots))
	full := false
	baseline, changedSince := fingerprintWalk(w.roots, w.since, func(root, real, dir string) {
		res := results[root]
		if res == nil {
			res = &treeResult{}
			results[root] = res
			w.realRoots[real] = true
		}
		if !full {
			full = !res.add(w.fsw, dir)
		}
	})
	w.last.swap(baseline)
	w.degraded = false
	for _, root := range w.roots {
		res := results[root]
		if res == nil {
			w.log.Debug("skills root not watched for now; the rescan will pick it up", "root", root)
			w.degraded = true
			continue
		}
		w.logTree(root, *res)
	}
	return changedSince
}

// watchRoots adds watches on every root that exists and everything below it.
func (w *Watcher) watchRoots() {
	w.degraded = false
	for _, root := range w.roots {
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			w.log.Debug("skills root not watched for now; the rescan will pick it up", "root", root, "error", err)
			w.degraded = true
			continue
		}
		w.realRoots[real] = true
		w.logTree(root, watchTree(w.fsw, real))
	}
}

func (w *Watcher) logTree(dir string, res treeResult) {
	if res.failed == 0 {
		return
	}
	w.degraded = true
	msg := "some directories are not watched, relying on the periodic rescan for them"
	if errors.Is(res.firstErr, syscall.ENOSPC) {
		msg = "inotify watch limit reached (raise fs.inotify.max_user_watches), relying on the periodic rescan"
	}
	w.log.Warn(msg, "tree", dir, "failed", res.failed, "first_error", res.firstErr, "rescan", w.rescanText())
}

func (w *Watcher) rescanText() string {
	if w.rescan < 0 {
		return "off"
	}
	return w.rescan.String()
}

// fire runs when a burst has ended: it records the fingerprint the rebuild
// will see, so the rescan does not report the same change again, then calls
// OnChange.
func (w *Watcher) fire() {
	w.last.swap(fingerprint(w.roots))
	w.onChange()
}
