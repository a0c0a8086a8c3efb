package skillscmd

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/sandbox"
)

// confineFlags are the operator's settings of native script confinement
// (issue 28), as flags of serve and run whose defaults are the variables.
type confineFlags struct {
	sandbox, network, readRoots, memoryMB, passEnv string
}

func (f *confineFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.sandbox, "scripts-sandbox", getenv(sandbox.SandboxEnv),
		"native scripts run confined (the default) or none: unconfined, with every right of the server's user (default $"+sandbox.SandboxEnv+")")
	fs.StringVar(&f.network, "scripts-network", getenv(sandbox.NetworkEnv),
		"confined scripts' network: deny (the default) or allow (default $"+sandbox.NetworkEnv+")")
	fs.StringVar(&f.readRoots, "scripts-read-roots", getenv(sandbox.ReadRootsEnv),
		"absolute directories, ':'-separated, every confined script may read (default $"+sandbox.ReadRootsEnv+")")
	fs.StringVar(&f.memoryMB, "scripts-memory-mb", getenv(sandbox.MemoryEnv),
		"data size bound of each confined script process in MiB (default $"+sandbox.MemoryEnv+" or "+strconv.Itoa(sandbox.DefaultMemoryMB)+")")
	fs.StringVar(&f.passEnv, "scripts-env", getenv(sandbox.PassEnvEnv),
		"names of the server's variables passed through to scripts, comma-separated (default $"+sandbox.PassEnvEnv+")")
}

// scriptConfinement is how native scripts run: confined by conf, or
// unconfined (conf nil); passEnv names the variables passed through.
type scriptConfinement struct {
	conf    *sandbox.Confinement
	network bool
	passEnv []string
}

// confined reports whether native scripts run confined.
func (s *scriptConfinement) confined() bool { return s != nil && s.conf != nil }

// networkDenied reports whether scripts run without network: confined
// with the network denied.
func (s *scriptConfinement) networkDenied() bool { return s.confined() && !s.network }

// newScriptConfinement checks the operator's settings. A wrong value is a
// usage error naming the variable (and its flag). Confinement that this
// machine cannot provide is not an error here: each native run is refused
// with the reason, and .wasm scripts still run.
func newScriptConfinement(f confineFlags, stateDir string, log hclog.Logger) (*scriptConfinement, error) {
	s := &scriptConfinement{passEnv: sandbox.SplitNames(f.passEnv)}
	if err := sandbox.CheckPassEnv(s.passEnv); err != nil {
		return nil, usagef("%w", err)
	}
	mode := strings.TrimSpace(f.sandbox)
	switch mode {
	case "", sandbox.SandboxConfined:
	case sandbox.SandboxNone:
		log.Warn("native scripts run unconfined, with every right of the server's user", sandbox.SandboxEnv, mode)
	default:
		return nil, usagef("%s (--scripts-sandbox) = %q: want %s or %s", sandbox.SandboxEnv, mode, sandbox.SandboxConfined, sandbox.SandboxNone)
	}
	switch net := strings.TrimSpace(f.network); net {
	case "", sandbox.NetworkDeny:
	case sandbox.NetworkAllow:
		s.network = true
	default:
		return nil, usagef("%s (--scripts-network) = %q: want %s or %s", sandbox.NetworkEnv, net, sandbox.NetworkDeny, sandbox.NetworkAllow)
	}
	mb := 0
	if v := strings.TrimSpace(f.memoryMB); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, usagef("%s (--scripts-memory-mb) = %q: want a whole number of MiB", sandbox.MemoryEnv, v)
		}
		mb = n
	}
	// A read root may not open the state directory (the buffered events,
	// the git clone's credentials) to scripts.
	opts := sandbox.ConfineOptions{ReadRoots: sandbox.SplitPaths(f.readRoots), Network: s.network, MemoryMB: mb,
		Protected: []sandbox.Protected{{Dir: stateDir, What: "the server's state directory (SKILLS_STATE_DIR)"}}}
	conf, err := sandbox.NewConfinement(opts)
	if err != nil {
		return nil, usagef("%w", err)
	}
	if mode == sandbox.SandboxNone {
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
		return fmt.Sprintf("native scripts: unconfined (%s=none)", sandbox.SandboxEnv)
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
	stateDir, err := stateDirectory(getenv)
	if err != nil {
		return "native scripts: " + err.Error()
	}
	sc, err := newScriptConfinement(f, stateDir, hclog.NewNullLogger())
	if err != nil {
		return "native scripts: " + err.Error()
	}
	return sc.describe()
}
