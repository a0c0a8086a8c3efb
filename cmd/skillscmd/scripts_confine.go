package skillscmd

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// confineFlags are the operator's settings of native script confinement
// (issue 28), as flags of serve and run whose defaults are the variables.
type confineFlags struct {
	sandbox, network, readRoots, memoryMB, passEnv string
}

func (f *confineFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.sandbox, "scripts-sandbox", getenv(launch.SandboxEnv),
		"native scripts run confined (the default) or none: unconfined, with every right of the server's user (default $"+launch.SandboxEnv+")")
	fs.StringVar(&f.network, "scripts-network", getenv(launch.NetworkEnv),
		"confined scripts' network: deny (the default) or allow (default $"+launch.NetworkEnv+")")
	fs.StringVar(&f.readRoots, "scripts-read-roots", getenv(launch.ReadRootsEnv),
		"absolute directories, ':'-separated, every confined script may read (default $"+launch.ReadRootsEnv+")")
	fs.StringVar(&f.memoryMB, "scripts-memory-mb", getenv(launch.MemoryEnv),
		"data size bound of each confined script process in MiB (default $"+launch.MemoryEnv+" or "+strconv.Itoa(launch.DefaultMemoryMB)+")")
	fs.StringVar(&f.passEnv, "scripts-env", getenv(launch.PassEnvEnv),
		"names of the server's variables passed through to scripts, comma-separated (default $"+launch.PassEnvEnv+")")
}

// fill takes, for each setting neither its flag nor its variable gave, the
// operator's settings file's value (scripts.sandbox, scripts.network,
// scripts.read_roots, scripts.memory_mb, scripts.env): flags over the
// environment over the file. The content's scripts.memory_mb may lower the
// bound; its scripts.network: deny is applied by newScriptConfinement.
func (f *confineFlags) fill(loaded *config.Loaded) {
	op, by := loaded.Config.Scripts, loaded.ByOperator
	if f.sandbox == "" && by("scripts.sandbox") {
		f.sandbox = op.Sandbox
	}
	if f.network == "" && by("scripts.network") {
		f.network = op.Network
	}
	if f.readRoots == "" && by("scripts.read_roots") {
		f.readRoots = strings.Join(op.ReadRoots, string(filepath.ListSeparator))
	}
	if f.passEnv == "" && by("scripts.env") {
		f.passEnv = strings.Join(op.Env, ",")
	}
	if f.memoryMB == "" && by("scripts.memory_mb") && op.MemoryMB > 0 {
		f.memoryMB = strconv.Itoa(op.MemoryMB)
	}
	if lower := loaded.Content.Scripts.MemoryMB; loaded.InContent("scripts.memory_mb") && lower > 0 {
		bound, err := launch.DefaultMemoryMB, error(nil)
		if v := strings.TrimSpace(f.memoryMB); v != "" {
			bound, err = strconv.Atoi(v) // a wrong value stays, to be refused naming its variable
		}
		if err == nil && lower < bound {
			f.memoryMB = strconv.Itoa(lower)
		}
	}
}

// scriptConfinement is how native scripts run: confined by conf, or
// unconfined (conf nil); passEnv names the variables passed through.
type scriptConfinement struct {
	conf    *launch.Confinement
	network bool
	passEnv []string
}

// confined reports whether native scripts run confined.
func (s *scriptConfinement) confined() bool { return s != nil && s.conf != nil }

// newScriptConfinement checks the operator's settings. A wrong value is a
// usage error naming the variable (and its flag). Confinement that this
// machine cannot provide is not an error here: each native run is refused
// with the reason, and .wasm scripts still run.
//
// contentDenies is the content's config.yaml narrowing the network to deny
// (scripts.network: deny): it holds whatever the operator allows.
func newScriptConfinement(f confineFlags, contentDenies bool, stateDir string, log hclog.Logger) (*scriptConfinement, error) {
	s := &scriptConfinement{passEnv: launch.SplitNames(f.passEnv)}
	if err := launch.CheckPassEnv(s.passEnv); err != nil {
		return nil, usagef("%w", err)
	}
	mode := strings.TrimSpace(f.sandbox)
	switch mode {
	case "", launch.SandboxConfined:
	case launch.SandboxNone:
		log.Warn("native scripts run unconfined, with every right of the server's user", launch.SandboxEnv, mode)
	default:
		return nil, usagef("%s (--scripts-sandbox) = %q: want %s or %s", launch.SandboxEnv, mode, launch.SandboxConfined, launch.SandboxNone)
	}
	switch net := strings.TrimSpace(f.network); net {
	case "", launch.NetworkDeny:
	case launch.NetworkAllow:
		s.network = !contentDenies
		if contentDenies {
			log.Info("scripts get no network: the content's config.yaml denies it (scripts.network: deny)", launch.NetworkEnv, net)
		}
	default:
		return nil, usagef("%s (--scripts-network) = %q: want %s or %s", launch.NetworkEnv, net, launch.NetworkDeny, launch.NetworkAllow)
	}
	mb := 0
	if v := strings.TrimSpace(f.memoryMB); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, usagef("%s (--scripts-memory-mb) = %q: want a whole number of MiB", launch.MemoryEnv, v)
		}
		mb = n
	}
	// A read root may not open the state directory (the buffered events,
	// the git clone's credentials) to scripts.
	opts := launch.ConfineOptions{ReadRoots: launch.SplitPaths(f.readRoots), Network: s.network, MemoryMB: mb,
		Protected: []confine.Protected{{Dir: stateDir, What: "the server's state directory (SKILLS_STATE_DIR)"}}}
	conf, err := launch.NewConfinement(opts)
	if err != nil {
		return nil, usagef("%w", err)
	}
	if mode == launch.SandboxNone {
		return s, nil
	}
	s.conf = conf
	log.Debug("native scripts run confined", "network", s.network, "read_roots", conf.ReadRoots(),
		"memory_mb", conf.MemoryBytes()>>20)
	return s, nil
}

// describe is the one line `version` prints about script confinement.
func (s *scriptConfinement) describe() string {
	if !s.confined() {
		return fmt.Sprintf("native scripts: unconfined (%s=none)", launch.SandboxEnv)
	}
	if err := s.conf.Available(); err != nil {
		return "native scripts: refused (" + err.Error() + "); .wasm scripts run; " + s.conf.Mechanisms()
	}
	return "native scripts: confined: " + s.conf.Mechanisms()
}

// confinementLine is what `version` says of native script confinement
// under the operator's settings: which mechanisms are active, or why none.
func confinementLine(getenv func(string) string) string {
	var f confineFlags
	f.register(flag.NewFlagSet("version", flag.ContinueOnError), getenv)
	loaded, err := config.LoadOperator(getenv(config.EnvOperatorFile), getenv)
	if err != nil {
		return "native scripts: " + err.Error()
	}
	f.fill(&loaded)
	stateDir, err := stateDirectory(getenv)
	if err != nil {
		return "native scripts: " + err.Error()
	}
	sc, err := newScriptConfinement(f, false, stateDir, hclog.NewNullLogger())
	if err != nil {
		return "native scripts: " + err.Error()
	}
	return sc.describe()
}

// Operator variables that replace config.yaml keys a content repository
// may no longer set (issue 28).
const (
	allowRemoteEnv = "SKILLS_SCRIPTS_ALLOW_REMOTE"
	wasmMountsEnv  = "SKILLS_WASM_MOUNTS"
	runnersEnv     = "SKILLS_SCRIPTS_RUNNERS"
)

// applyOperatorScripts puts the operator's script settings into cfg, in the
// keys config.yaml can no longer set: how native scripts run and whether
// they reach the network (scripts.sandbox, scripts.network), run_script
// over HTTP (SKILLS_SCRIPTS_ALLOW_REMOTE), the .wasm runner's mounts
// (SKILLS_WASM_MOUNTS: GUEST=HOST entries, ':'-separated) and the
// directories where its cwd may lie (the write roots).
func applyOperatorScripts(getenv func(string) string, cfg *config.Config, sc *scriptConfinement, work *confine.WorkDirs) error {
	cfg.Scripts.Sandbox, cfg.Scripts.Network = launch.SandboxNone, launch.NetworkAllow
	if sc.confined() {
		cfg.Scripts.Sandbox = launch.SandboxConfined
		if !sc.network {
			cfg.Scripts.Network = launch.NetworkDeny
		}
	}
	switch v := strings.TrimSpace(getenv(allowRemoteEnv)); v {
	case "": // the operator's settings file's scripts.allow_remote, or false
	case "false", "0":
		cfg.Scripts.AllowRemote = false
	case "true", "1":
		cfg.Scripts.AllowRemote = true
	default:
		return usagef("%s=%q: want true or false", allowRemoteEnv, v)
	}
	if getenv(wasmMountsEnv) != "" { // else the operator's settings file's wasm.mounts
		cfg.Wasm.Mounts = map[string]string{}
	}
	for _, entry := range launch.SplitPaths(getenv(wasmMountsEnv)) {
		guest, host, ok := strings.Cut(entry, "=")
		if !ok || !strings.HasPrefix(guest, "/") || !filepath.IsAbs(host) {
			return usagef("%s: entry %q: want GUEST=HOST, both absolute paths (/data=/srv/data)", wasmMountsEnv, entry)
		}
		cfg.Wasm.Mounts[guest] = host
	}
	cfg.Wasm.CwdRoots = work.Roots()
	return nil
}

// applyOperatorRunners decides which program runs each extension: the
// operator's SKILLS_SCRIPTS_RUNNERS (".ext=command" entries, ','-separated)
// add programs and win; the content's scripts.runners may only pick among
// the operator's programs (the standard four and those), each other entry
// is ignored with a warning naming the variable, and the extension keeps
// its default program, if it has one.
func applyOperatorRunners(getenv func(string) string, loaded config.Loaded, cfg *config.Config, log hclog.Logger) error {
	def := config.Default().Scripts.Runners
	allowed := map[string]bool{}
	for _, command := range def {
		allowed[normalCommand(command)] = true
	}
	operator := map[string]string{}
	for ext, command := range cfg.Scripts.Runners {
		if loaded.ByOperator("scripts.runners." + ext) { // the operator's settings file's
			operator[ext], allowed[normalCommand(command)] = command, true
		}
	}
	for _, entry := range splitList(getenv(runnersEnv)) {
		ext, command, ok := strings.Cut(entry, "=")
		ext, command = strings.TrimSpace(ext), normalCommand(command)
		if !ok || len(ext) < 2 || ext[0] != '.' || strings.ContainsAny(ext[1:], "./\\ ") || command == "" {
			return usagef("%s: entry %q: want .EXT=COMMAND (.rb=ruby)", runnersEnv, entry)
		}
		operator[ext], allowed[command] = command, true
	}
	if cfg.Scripts.Runners == nil {
		cfg.Scripts.Runners = map[string]string{}
	}
	for ext, command := range cfg.Scripts.Runners {
		if allowed[normalCommand(command)] {
			continue
		}
		log.Warn("scripts.runners: ignored: the content may only pick among the operator's programs (the standard four, and "+runnersEnv+")",
			"extension", ext, "command", command, "set_by", loaded.Origin("scripts.runners."+ext))
		if d, ok := def[ext]; ok {
			cfg.Scripts.Runners[ext] = d
		} else {
			delete(cfg.Scripts.Runners, ext)
		}
	}
	for ext, command := range operator {
		cfg.Scripts.Runners[ext] = command
	}
	return nil
}

// normalCommand is a runner command with its words separated by one space.
func normalCommand(command string) string { return strings.Join(strings.Fields(command), " ") }
