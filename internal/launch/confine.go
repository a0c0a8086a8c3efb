package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// The operator's settings of script confinement (issue 28). Only the
// environment (and the flags that mirror it) sets them; a content
// repository's config.yaml never does.
const (
	// SandboxEnv chooses how native scripts run: "confined" (the default)
	// or "none" (with every right of the server's user, as before).
	SandboxEnv = "SKILLS_SCRIPTS_SANDBOX"
	// NetworkEnv chooses whether confined scripts reach the network:
	// "deny" (the default) or "allow".
	NetworkEnv = "SKILLS_SCRIPTS_NETWORK"
	// ReadRootsEnv lists (":"-separated, absolute) directories every
	// confined script may read, e.g. a granted dependency tree.
	ReadRootsEnv = "SKILLS_SCRIPTS_READ_ROOTS"
	// MemoryEnv bounds the data size of each confined script process, in
	// MiB (default DefaultMemoryMB).
	MemoryEnv = "SKILLS_SCRIPTS_MEMORY_MB"
	// PassEnvEnv lists (","- or ":"-separated) names of the server's
	// environment variables passed through to scripts, confined or not
	// (e.g. PYTHONPATH for a granted dependency root).
	PassEnvEnv = "SKILLS_SCRIPTS_ENV"
)

// Sandbox modes, the values of SandboxEnv.
const (
	SandboxConfined = "confined"
	SandboxNone     = "none"
)

// Network modes, the values of NetworkEnv.
const (
	NetworkDeny  = "deny"
	NetworkAllow = "allow"
)

// DefaultMemoryMB is the data-size bound of a confined script process when
// MemoryEnv is unset.
const DefaultMemoryMB = 1024

// MaxProcesses bounds the processes and threads of one confined run (the
// script and everything it starts, counted in the run's own user
// namespace): Node alone starts about ten threads, a build tool a few
// dozen processes; a fork bomb stops here.
const MaxProcesses = 256

// ConfineOptions are the operator's settings of a Confinement.
type ConfineOptions struct {
	// ReadRoots are extra directories every script may read (absolute,
	// existing, not "/").
	ReadRoots []string
	// Network lets scripts reach the network (no network namespace, no
	// TCP rules).
	Network bool
	// MemoryMB bounds the data size of each script process; 0 means
	// DefaultMemoryMB.
	MemoryMB int
	// Launcher is the executable that confines itself and then runs the
	// script's program: an executable linking this package (every one
	// does, see LauncherArg0). Empty means this process's executable.
	Launcher string
	// Protected are directories no read root may hold or lie in (the
	// state directory): a script must never read the server's secrets.
	Protected []confine.Protected
}

// Confinement runs native script processes confined: a launcher started in
// a new user namespace (and network namespace unless the network is
// allowed) sets resource limits and no_new_privs, restricts itself with
// Landlock to the run's grants, then executes the script's program. It is
// safe for concurrent use.
type Confinement struct {
	readRoots []string
	network   bool
	dataBytes uint64
	launcher  string

	mu       sync.Mutex
	installs map[string]*lazyInstall // by the program path a runner resolved
	probe    probeResult
}

// NewConfinement checks the operator's options. Each error names the
// setting at fault.
func NewConfinement(opts ConfineOptions) (*Confinement, error) {
	c := &Confinement{network: opts.Network, installs: map[string]*lazyInstall{}}
	for _, root := range opts.ReadRoots {
		real, err := checkReadRoot(root, opts.Protected)
		if err != nil {
			return nil, err
		}
		c.readRoots = append(c.readRoots, real)
	}
	mb := opts.MemoryMB
	switch {
	case mb == 0:
		mb = DefaultMemoryMB
	case mb < 16:
		return nil, fmt.Errorf("%s=%d: want a number of MiB of at least 16", MemoryEnv, mb)
	case mb > 1<<20:
		return nil, fmt.Errorf("%s=%d: want a number of MiB of at most %d", MemoryEnv, mb, 1<<20)
	}
	c.dataBytes = uint64(mb) << 20
	c.launcher = opts.Launcher
	if c.launcher == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding this executable to confine scripts with: %w (set %s=none to run scripts unconfined)", err, SandboxEnv)
		}
		c.launcher = exe
	}
	return c, nil
}

// Network reports whether confined scripts may reach the network.
func (c *Confinement) Network() bool { return c.network }

// MemoryBytes is the data-size bound of each script process.
func (c *Confinement) MemoryBytes() uint64 { return c.dataBytes }

// ReadRoots are the operator's read roots, symlinks resolved.
func (c *Confinement) ReadRoots() []string { return slices.Clone(c.readRoots) }

// CheckPassEnv checks the names of PassEnvEnv: variable names, none of
// those the run sets itself. The error names PassEnvEnv.
func CheckPassEnv(names []string) error {
	for _, name := range names {
		if err := checkEnvName(name); err != nil {
			return err
		}
	}
	return nil
}

// PassedEnv returns NAME=value for each of names that the server's
// environment sets, sorted by name.
func PassedEnv(names []string) []string {
	var env []string
	for _, name := range names {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	sortByName(env)
	return env
}

// reservedEnv are the variables SKILLS_SCRIPTS_ENV cannot pass through:
// the run sets them itself.
var reservedEnv = []string{"PATH", "HOME", "TMPDIR", SkillDirEnv, RunMarkerEnv}

func checkEnvName(name string) error {
	bad := func(why string) error { return fmt.Errorf("%s: variable name %q %s", PassEnvEnv, name, why) }
	if name == "" {
		return bad("is empty")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isASCIILetter(c) && c != '_' && (c < '0' || c > '9' || i == 0) {
			return bad("is not a variable name (letters, digits and _, not starting with a digit)")
		}
	}
	if slices.Contains(reservedEnv, name) || strings.HasPrefix(name, ArgEnvPrefix) {
		return bad("is set by the run itself")
	}
	return nil
}

// checkReadRoot checks one operator read root and returns it with its
// symlinks resolved.
func checkReadRoot(root string, protected []confine.Protected) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("%s: read root %q %s", ReadRootsEnv, root, fmt.Sprintf(format, args...))
	}
	if strings.ContainsRune(root, 0) {
		return bad("holds a NUL byte")
	}
	if !filepath.IsAbs(root) {
		return bad("is a relative path: list absolute directories")
	}
	fi, err := os.Stat(root)
	switch {
	case os.IsNotExist(err):
		return bad("does not exist: create it, or leave it out")
	case err != nil:
		return bad("cannot be used: %v", err)
	case !fi.IsDir():
		return bad("is not a directory")
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return bad("cannot be resolved: %v", err)
	}
	if filepath.Dir(real) == real {
		return bad("is the root of the file system: scripts could read every file the server's user can")
	}
	for _, p := range protected {
		if p.Dir == "" {
			continue
		}
		dir := confine.ResolvedAsFarAsExists(p.Dir)
		if confine.Within(real, dir) || confine.Within(dir, real) {
			return bad("holds or lies in %s (%s): scripts could read the server's secrets", p.What, p.Dir)
		}
	}
	return real, nil
}

// SplitPaths splits a ":"-separated list of directories of the operator's
// (SKILLS_SCRIPTS_READ_ROOTS), dropping empty entries.
func SplitPaths(value string) []string {
	var out []string
	for _, f := range filepath.SplitList(value) {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// SplitNames splits a list of variable names (SKILLS_SCRIPTS_ENV) on
// commas, colons and spaces, dropping empty entries.
func SplitNames(value string) []string {
	return strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ':' || r == ' ' || r == '\t' })
}
