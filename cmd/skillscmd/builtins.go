package skillscmd

import (
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/wasmproc"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/auto"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/hybrid"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
	httpsink "github.com/skills-mcp/skills-mcp/plugins/sink/http"
	"github.com/skills-mcp/skills-mcp/plugins/sink/jsonl"
	logsink "github.com/skills-mcp/skills-mcp/plugins/sink/log"
	otlpsink "github.com/skills-mcp/skills-mcp/plugins/sink/otlp"
)

// builtinPlugins are the plugins every skills-mcp has, registered through
// Options exactly as a caller's own. The exec runners are not here: they are
// configuration (scripts.runners maps an extension to a program).
func builtinPlugins() *Options {
	return &Options{
		Runners: []RunnerPlugin{{Extension: wasmExtension, New: newWasmRunner}},
		Matchers: []MatcherPlugin{
			{Name: "keyword", New: func(PluginContext) (core.Matcher, error) { return keyword.New(), nil }},
			{Name: "ranked", New: func(PluginContext) (core.Matcher, error) { return ranked.New(), nil }},
			{Name: defaultMatcher, New: func(PluginContext) (core.Matcher, error) { return auto.New(keyword.New(), ranked.New()), nil }},
			{Name: hybrid.Name, New: newHybridMatcher},
		},
		Sinks: []SinkPlugin{
			{Name: httpsink.Name, New: func(pc PluginContext) (core.Sink, error) {
				return httpsink.New(httpsink.Options{Endpoint: pc.cfg.Analytics.Endpoint,
					Timeout: time.Duration(pc.cfg.Analytics.TimeoutSeconds) * time.Second}), nil
			}},
			{Name: logsink.Name, New: func(pc PluginContext) (core.Sink, error) { return logsink.New(pc.Logger), nil }},
			{Name: jsonl.Name, New: newEventsFileSink},
			{Name: otlpsink.Name, New: func(pc PluginContext) (core.Sink, error) {
				return otlpsink.New(otlpsink.Options{Getenv: pc.Getenv, Version: version})
			}},
		},
	}
}

// defaultMatcher serves when neither SKILLS_MATCHER nor matching.matcher
// names one: "keyword" (spec 000 §5) for a snapshot whose skills mostly
// declare keywords, "ranked" for the others (plugins/matcher/auto).
const defaultMatcher = "auto"

// wasmExtension is served by the WebAssembly runner; it needs no runner program.
const wasmExtension = ".wasm"

// newWasmRunner is the .wasm runner: each run in a child skills-mcp-wasm, the
// only executable that links wazero (internal/wasmproc), so a server whose
// skills never run a module carries none of it (issue 19).
func newWasmRunner(pc PluginContext) (core.Runner, error) {
	cacheDir := ""
	if pc.StateDir != "" {
		cacheDir = filepath.Join(pc.StateDir, "wasm-cache")
	}
	if _, err := wasmproc.CheckMounts(pc.cfg.Wasm.Mounts); err != nil {
		return nil, err // at start-up, not at the first run
	}
	// A cwd must lie under the operator's write roots (checked before any
	// runner) and, for a .wasm script, under wasm.cwd_roots too; a run
	// without one gets a scratch directory, mounted at /cwd like a cwd.
	writable := slices.Clone(pc.cfg.Wasm.CwdRoots)
	if pc.StateDir != "" {
		writable = append(writable, confine.ScratchBase(pc.StateDir))
	}
	return wasmproc.New(wasmproc.Options{
		Engine: wasmproc.Engine{
			MemoryLimitPages: uint32(pc.cfg.Wasm.MemoryLimitMB) * 16, // 64 KiB pages
			Mounts:           pc.cfg.Wasm.Mounts,
			CacheDir:         cacheDir,
			WritableRoots:    writable,
		},
		Logger:    pc.Logger,
		MaxIdle:   pc.cfg.Scripts.MaxConcurrent, // the helpers kept warm never outnumber the runs at once
		Processes: pc.procs,
	}), nil
}

// eventsFileName is the file the jsonl sink appends every event to, in the
// state directory: unlike the delivery buffer, nothing empties it, so
// `skills-mcp eval --events` can read the traffic back.
const eventsFileName = "analytics-events.jsonl"

// newEventsFileSink is the jsonl sink: events appended as JSON lines to
// $SKILLS_STATE_DIR/analytics-events.jsonl, bounded like the buffer
// (analytics.max_buffer_bytes, the oldest dropped first).
func newEventsFileSink(pc PluginContext) (core.Sink, error) {
	if pc.StateDir == "" {
		return nil, errors.New("no state directory for " + eventsFileName + ": set SKILLS_STATE_DIR")
	}
	return jsonl.New(filepath.Join(pc.StateDir, eventsFileName), pc.cfg.Analytics.MaxBufferBytes, pc.Logger), nil
}
