package main

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// settings are the knobs of one benchmark run.
type settings struct {
	bin      string   // the skills-mcp binary
	floorBin string   // the cmd/mcp-floor binary
	corpora  string   // where corpora are cached ("" for corpus.CacheRoot)
	runs     int      // server spawns (and cat, index samples) per size
	calls    int      // get_skill calls per run, sequential and again in flight
	inFlight int      // concurrent get_skill calls
	args     []string // extra serve arguments
	env      []string // extra server environment, KEY=VALUE
}

// latencies are the round trips of one batch of calls.
type latencies struct {
	p50, p99    time.Duration
	callsPerSec float64
	cpuPerCall  time.Duration // server CPU time per call (0 when not measured)
}

// runSample is what one server process gave.
type runSample struct {
	spawn                time.Duration
	spawnNoWatch         time.Duration // the same with --no-watch: what the file watcher's setup costs
	firstAnswer          time.Duration // spawn to the answer of a get_skill sent right after initialized
	startCPU             time.Duration // server CPU from spawn until it went idle (the index build and background walks)
	seq, par             latencies
	ambiguous, noHit     latencies
	list                 time.Duration
	listBytes            int
	refresh              time.Duration
	idleRSS              int64 // VmRSS once idle after start-up and the first get_skill
	rss, rssAfterRefresh int64 // VmHWM after serving (get_skill, list_skills), then after refresh_skills
	getBytes             int   // the length of the single-match get_skill result
}

// sizeResult is everything measured at one corpus size.
type sizeResult struct {
	skills       int
	files        int
	bytes        int64
	contexts     corpus.Contexts
	cat, indexed []time.Duration
	runs         []runSample
	tools        []toolSample // skills_search and the skill tool, one server per run
	floors       sizedFloors  // the floor answering as many bytes as each tool
}

// measureSize runs every measurement on the corpus of n skills.
func measureSize(st settings, n int, progress func(string)) (*sizeResult, error) {
	c, dir, err := corpus.Cached(st.corpora, corpus.Options{Skills: n})
	if err != nil {
		return nil, err
	}
	res := &sizeResult{skills: n}
	if res.files, res.bytes, err = treeSize(dir); err != nil {
		return nil, err
	}
	progress(fmt.Sprintf("skills=%d: %d files, %d bytes in %s", n, res.files, res.bytes, dir))
	if err := catTree(dir); err != nil { // warms the page cache: every figure is taken warm
		return nil, err
	}
	for range st.runs {
		start := time.Now()
		if err := catTree(dir); err != nil {
			return nil, err
		}
		res.cat = append(res.cat, time.Since(start))
	}
	if res.indexed, res.contexts, err = measureIndex(c, dir, st.runs); err != nil {
		return nil, err
	}
	runtime.GC()
	for i := range st.runs {
		progress(fmt.Sprintf("skills=%d: server run %d/%d", n, i+1, st.runs))
		sample, err := measureServer(st, dir, res.contexts)
		if err != nil {
			return nil, err
		}
		res.runs = append(res.runs, sample)
		tools, err := measureMoreTools(st, dir, c, res.contexts, max(st.calls/20, 10))
		if err != nil {
			return nil, err
		}
		res.tools = append(res.tools, tools)
	}
	progress(fmt.Sprintf("skills=%d: the floor at the tools' answer sizes", n))
	if res.floors, err = measureSizedFloors(st, res); err != nil {
		return nil, err
	}
	return res, nil
}

// catTree reads every file under dir with cat, as `find DIR -type f -exec cat {} +`
// does, output discarded: the floor an index build is judged against.
func catTree(dir string) error {
	cmd := exec.Command("find", dir, "-type", "f", "-exec", "cat", "{}", "+")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("reading %s with cat: %w", dir, err)
	}
	return nil
}

// measureIndex times in-process rebuilds of the index on dir (the same code
// the server runs at startup and on refresh_skills), the walks of the
// resource directories that finish a rebuild in the background included, and
// picks the get_skill contexts of the three outcomes.
func measureIndex(c *corpus.Corpus, dir string, runs int) ([]time.Duration, corpus.Contexts, error) {
	ix := index.New(index.Options{Root: dir, Matcher: keyword.New()})
	var out []time.Duration
	var snap *index.Snapshot
	for range runs {
		runtime.GC()
		start := time.Now()
		s, err := ix.Rebuild(context.Background())
		if err != nil {
			return nil, corpus.Contexts{}, err
		}
		s.Problems() // waits for the walks of the resource directories, done once the snapshot is current
		out = append(out, time.Since(start))
		snap = s
	}
	if snap.Len() != len(c.Skills) {
		return nil, corpus.Contexts{}, fmt.Errorf("indexing %s: got %d skills, want %d", dir, snap.Len(), len(c.Skills))
	}
	cfg := config.Default().Matching.Rank()
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.SearchRank(snap.Searcher(), ctx, cfg) })
	return out, ctxs, err
}

// measureServer spawns one server and measures it: spawn to initialize,
// get_skill sequential and in flight, list_skills, peak RSS, refresh_skills.
func measureServer(st settings, dir string, ctxs corpus.Contexts) (runSample, error) {
	p, err := startServer(st.bin, dir, st.args, st.env)
	if err != nil {
		return runSample{}, err
	}
	defer p.stop()
	s := runSample{spawn: p.spawn}
	single := map[string]any{"context": ctxs.Single}
	if _, err := p.client.callTool("get_skill", single); err != nil {
		return s, err
	}
	s.firstAnswer = time.Since(p.started)
	if s.startCPU, err = untilIdle(p.pid()); err != nil {
		return s, err
	}
	if s.idleRSS, err = statusField(p.pid(), "VmRSS"); err != nil {
		return s, err
	}
	if err := warmUp(p.client, single); err != nil {
		return s, err
	}
	if s.getBytes, err = p.client.callToolSize("get_skill", single); err != nil {
		return s, err
	}
	if s.seq, err = sequential(p, single, st.calls); err != nil {
		return s, err
	}
	if s.par, err = inFlight(p.client, single, st.calls, st.inFlight); err != nil {
		return s, err
	}
	if s.ambiguous, err = sequential(p, map[string]any{"context": ctxs.Ambiguous}, st.calls/4); err != nil {
		return s, err
	}
	if s.noHit, err = sequential(p, map[string]any{"context": ctxs.NoMatch}, st.calls/4); err != nil {
		return s, err
	}
	start := time.Now()
	text, err := p.client.callTool("list_skills", map[string]any{})
	if err != nil {
		return s, err
	}
	s.list, s.listBytes = time.Since(start), len(text)
	if s.rss, err = peakRSS(p.pid()); err != nil {
		return s, err
	}
	start = time.Now()
	if _, err := p.client.callTool("refresh_skills", map[string]any{}); err != nil {
		return s, err
	}
	s.refresh = time.Since(start)
	if s.rssAfterRefresh, err = peakRSS(p.pid()); err != nil {
		return s, err
	}
	if !slices.Contains(st.args, "--no-watch") {
		q, err := startServer(st.bin, dir, append(slices.Clone(st.args), "--no-watch"), st.env)
		if err != nil {
			return s, err
		}
		s.spawnNoWatch = q.spawn
		q.stop()
	}
	return s, nil
}

// warmUp makes a few get_skill calls so that first-call costs are not timed.
func warmUp(c *client, args map[string]any) error { return warmUpTool(c, "get_skill", args) }

// warmUpTool is warmUp for any tool.
func warmUpTool(c *client, tool string, args map[string]any) error {
	for range 20 {
		if _, err := c.callTool(tool, args); err != nil {
			return err
		}
	}
	return nil
}

// sequential makes n get_skill calls one after the other and measures their
// round trips and the server CPU time they cost.
func sequential(p *serverProc, args map[string]any, n int) (latencies, error) {
	return sequentialTool(p, "get_skill", args, n)
}

// sequentialTool is sequential for any tool.
func sequentialTool(p *serverProc, tool string, args map[string]any, n int) (latencies, error) {
	n = max(n, 1)
	rt := make([]time.Duration, 0, n)
	cpu0, err := cpuTime(p.pid())
	if err != nil {
		return latencies{}, err
	}
	start := time.Now()
	for range n {
		t := time.Now()
		if _, err := p.client.callTool(tool, args); err != nil {
			return latencies{}, err
		}
		rt = append(rt, time.Since(t))
	}
	elapsed := time.Since(start)
	cpu1, err := cpuTime(p.pid())
	if err != nil {
		return latencies{}, err
	}
	l := summarize(rt, elapsed)
	l.cpuPerCall = (cpu1 - cpu0) / time.Duration(n)
	return l, nil
}

// inFlight makes n get_skill calls from k goroutines, so that k calls are in
// flight at any time, and measures their round trips and the throughput.
func inFlight(c *client, args map[string]any, n, k int) (latencies, error) {
	n, k = max(n, k), max(k, 1)
	per := n / k
	rts := make([][]time.Duration, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	start := time.Now()
	for g := range k {
		wg.Go(func() {
			rts[g] = make([]time.Duration, 0, per)
			for range per {
				t := time.Now()
				if _, err := c.callTool("get_skill", args); err != nil {
					errs[g] = err
					return
				}
				rts[g] = append(rts[g], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for g := range k {
		if errs[g] != nil {
			return latencies{}, errs[g]
		}
		all = append(all, rts[g]...)
	}
	return summarize(all, elapsed), nil
}

// summarize computes the percentiles of round trips and the calls per second.
func summarize(rt []time.Duration, elapsed time.Duration) latencies {
	return latencies{
		p50:         percentile(rt, 50),
		p99:         percentile(rt, 99),
		callsPerSec: float64(len(rt)) / elapsed.Seconds(),
	}
}
