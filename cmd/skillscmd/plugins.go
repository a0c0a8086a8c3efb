package skillscmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// Options extend the command with a caller's own plugins. A nil *Options, like
// a zero one, means the built-in plugins only. The built-ins are registered
// through the same fields (see builtinPlugins), so a name is unique across
// both: registering a taken name or extension panics in New.
type Options struct {
	// Runners execute server scripts, one per file extension. An extension is
	// served only when config.yaml also lists it in scripts.allowed_extensions:
	// the allow-list stays the security gate. A plugin's extension takes
	// precedence over a scripts.runners entry for the same extension.
	Runners []RunnerPlugin
	// Sinks deliver analytics events; the one named by SKILLS_ANALYTICS_SINK
	// or config.yaml's analytics.sink is the primary sink.
	Sinks []SinkPlugin
	// Matchers route a get_skill context to skills; the one named by
	// SKILLS_MATCHER or config.yaml's matching.matcher serves (default
	// "auto": "keyword", "ranked" or both per snapshot). ambiguity_threshold and max_results apply to
	// whichever matcher serves; min_score to one whose scores are §5's, min_confidence to one whose
	// scores are confidences (core.Calibrated).
	Matchers []MatcherPlugin
}

// PluginContext is what a plugin's constructor gets: its own settings, a
// logger named after the plugin (stderr only: stdout belongs to MCP), the
// state directory (may be empty), the command's environment and, for
// runner plugins, the core's way to start programs.
type PluginContext struct {
	// Settings is the plugin's own section of the operator's settings file
	// (SKILLS_CONFIG): plugins.runners.EXT, plugins.sinks.NAME or
	// plugins.matchers.NAME, decoded strictly into the value the plugin's
	// Settings function returned (its defaults where the section is silent);
	// nil for a plugin that declares no Settings. The content's config.yaml
	// never sets it.
	Settings any
	Logger   hclog.Logger
	StateDir string
	Getenv   func(string) string
	// Program returns a runner that runs a script with command (a program
	// and its leading arguments, split as scripts.runners are: "awk
	// {print(toupper($0))}" runs `awk {print(toupper($0))} SCRIPT`) through
	// the core's launcher: confined as the exec runners are (the operator's
	// SKILLS_SCRIPTS_SANDBOX and the rest) and supervised the same way
	// (timeout, output caps, process group). A runner plugin that starts
	// programs starts them through it. Nil outside runner plugins.
	Program func(command string) (core.Runner, error)
	// cfg is the server's settings, for the built-in plugins whose settings
	// spec 000 places in shared sections (analytics.endpoint, wasm.*).
	cfg *config.Config
	// procs is the table of runs and helpers the reaper spares, for the
	// built-in .wasm runner's helpers; nil when nothing reaps.
	procs *launch.Processes
}

// SettingsOf returns the plugin's own settings as the type its Settings
// function returns (a pointer to its settings struct, *T). Asking for another
// type, or asking a plugin that declares no Settings, is a programming error:
// it panics naming the plugin's settings type and the one asked for.
func SettingsOf[T any](pc PluginContext) *T {
	s, ok := pc.Settings.(*T)
	if !ok || s == nil {
		panic(fmt.Sprintf("skillscmd.SettingsOf: the plugin's settings are %s, not the requested %T", settingsType(pc.Settings), s))
	}
	return s
}

// settingsType names the type of a plugin's settings for SettingsOf's panic.
func settingsType(v any) string {
	if v == nil {
		return "none (the plugin declares no Settings)"
	}
	return fmt.Sprintf("%T", v)
}

// RunnerPlugin registers a script runner for one extension (".rb", with the
// dot). New is called once per serve or run; when the runner it returns also
// has a Close(context.Context) error method, that is called at shutdown.
type RunnerPlugin struct {
	Extension string
	// Settings, when not nil, declares the plugin's own section of the
	// settings (caddy's module model): it returns a pointer to a new value
	// of the plugin's settings struct (yaml tags name its keys) holding the
	// defaults, which the section is decoded into, every problem reported at
	// its line with the rest of the settings. New finds it in
	// PluginContext.Settings.
	Settings func() any
	New      func(PluginContext) (core.Runner, error)
}

// SinkPlugin registers an analytics sink by name. New is called once, when
// the sink is selected; the publisher batches events to it and calls its
// Close at shutdown after delivering everything still queued.
type SinkPlugin struct {
	Name string
	// Settings, when not nil, declares the plugin's own section of the
	// settings (caddy's module model): it returns a pointer to a new value
	// of the plugin's settings struct (yaml tags name its keys) holding the
	// defaults, which the section is decoded into, every problem reported at
	// its line with the rest of the settings. New finds it in
	// PluginContext.Settings.
	Settings func() any
	New      func(PluginContext) (core.Sink, error)
}

// MatcherPlugin registers a matcher by name. New is called once per command
// run that reads skills; the index builds a Searcher from it per snapshot.
type MatcherPlugin struct {
	Name string
	// Settings, when not nil, declares the plugin's own section of the
	// settings (caddy's module model): it returns a pointer to a new value
	// of the plugin's settings struct (yaml tags name its keys) holding the
	// defaults, which the section is decoded into, every problem reported at
	// its line with the rest of the settings. New finds it in
	// PluginContext.Settings.
	Settings func() any
	New      func(PluginContext) (core.Matcher, error)
}

// Command is skills-mcp with a fixed set of plugins. It holds only values
// built in New; one Command may Run any number of times, concurrently.
type Command struct {
	runners  *core.Registry[RunnerPlugin]
	sinks    *core.Registry[SinkPlugin]
	matchers *core.Registry[MatcherPlugin]
}

// New returns the command with the built-in plugins plus those of opts. An
// empty or duplicate name or extension is a programming error and panics.
func New(opts *Options) *Command {
	c := &Command{
		runners:  core.NewRegistry[RunnerPlugin]("runner"),
		sinks:    core.NewRegistry[SinkPlugin]("sink"),
		matchers: core.NewRegistry[MatcherPlugin]("matcher"),
	}
	c.add(builtinPlugins())
	if opts != nil {
		c.add(opts)
	}
	return c
}

func (c *Command) add(o *Options) {
	for _, r := range o.Runners {
		if r.New == nil {
			panic("skillscmd: runner " + r.Extension + ": nil New")
		}
		c.runners.Register(r.Extension, r)
	}
	for _, s := range o.Sinks {
		if s.New == nil {
			panic("skillscmd: sink " + s.Name + ": nil New")
		}
		c.sinks.Register(s.Name, s)
	}
	for _, m := range o.Matchers {
		if m.New == nil {
			panic("skillscmd: matcher " + m.Name + ": nil New")
		}
		c.matchers.Register(m.Name, m)
	}
}

// Sections of the plugins' settings, by kind.
const (
	runnersSection  = "plugins.runners"
	sinksSection    = "plugins.sinks"
	matchersSection = "plugins.matchers"
)

// sections are the settings sections the plugins declare, for the loader.
func (c *Command) sections() []config.Section {
	var out []config.Section
	add := func(kind, name string, settings func() any) {
		if settings != nil {
			out = append(out, config.Section{Key: kind + "." + name, New: settings})
		}
	}
	for _, name := range c.runners.Names() {
		p, _ := c.runners.Lookup(name)
		add(runnersSection, name, p.Settings)
	}
	for _, name := range c.sinks.Names() {
		p, _ := c.sinks.Lookup(name)
		add(sinksSection, name, p.Settings)
	}
	for _, name := range c.matchers.Names() {
		p, _ := c.matchers.Lookup(name)
		add(matchersSection, name, p.Settings)
	}
	return out
}

// pluginContext is the context of the plugin of section key under loaded.
func pluginContext(loaded *config.Loaded, key string, log hclog.Logger, stateDir string, getenv func(string) string) PluginContext {
	return PluginContext{Settings: loaded.Plugin(key), Logger: log, StateDir: stateDir, Getenv: getenv, cfg: &loaded.Config}
}

// hasRunner reports whether a runner plugin serves ext (".wasm" always does).
func (c *Command) hasRunner(ext string) bool {
	_, err := c.runners.Lookup(ext)
	return err == nil
}

// Main is the whole command for a main package: it reads os.Args, the
// standard streams and the environment, stops on SIGINT or SIGTERM, and
// returns the exit code for os.Exit.
func (c *Command) Main() int {
	if err := protectSecrets(); err != nil {
		fmt.Fprintln(os.Stderr, "skills-mcp: making the process non-dumpable: "+err.Error())
		return exitFailed
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go exitWatchdog(ctx)
	procs := launch.NewProcesses() // the runs and helpers the reaper spares
	startReaping(ctx, procs)
	memory := gcPolicy(os.Getenv) // the runtime reads GOGC from the process's environment
	return c.run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.Environ, procs, memory)
}

// Run is the whole program, testable: args without the program name, the
// three standard streams and the environment. It returns the exit code: 0 ok,
// 1 the request failed, 2 usage or configuration error.
func (c *Command) Run(ctx context.Context, args []string, stdin io.ReadCloser, stdout, stderr io.Writer, getenv func(string) string) int {
	return c.run(ctx, args, stdin, stdout, stderr, getenv, nil, nil, nil)
}

// run is Run; environ, when not nil, lists the environment's variables, so
// that a misspelled one can be named (misspelledEnv); procs, when not nil,
// is the table of runs and helpers the reaper spares (Main's); memory is the
// process's collector policy the server is given (nil: the collector is
// left alone, as Run leaves it: the process is the caller's).
func (c *Command) run(ctx context.Context, args []string, stdin io.ReadCloser, stdout, stderr io.Writer, getenv func(string) string, environ func() []string, procs *launch.Processes, memory server.MemoryPolicy) int {
	getenv, err := withSecretFiles(getenv)
	if err != nil {
		return exitCode(usagef("%w", err), stderr)
	}
	var names []string
	if environ != nil {
		names = environ()
	}
	return c.runWith(ctx, args, stdin, stdout, stderr, getenv, names, procs, memory)
}
