package sandbox

import "github.com/skills-mcp/skills-mcp/internal/launch"

// ErrUnconfinable wraps every error saying that a script cannot be run
// confined here: the kernel lacks a mechanism, or the launcher failed.
var ErrUnconfinable = launch.ErrUnconfinable

// ConfineOptions are the operator's settings of a Confinement.
type ConfineOptions struct {
	// ReadRoots are extra directories every script may read (absolute,
	// existing, not "/").
	ReadRoots []string
	// Network lets scripts reach the network (no network namespace, no
	// TCP rules).
	Network bool
	// MemoryMB bounds the data size of each script process; 0 means
	// 1024 MiB.
	MemoryMB int
}

// Confinement runs native script processes confined: a launcher (the
// running executable, started under another name) enters a new user
// namespace, and a new network namespace unless the network is allowed,
// sets resource limits and no_new_privs, restricts itself with Landlock to
// the system locations, the runners' installations, the read roots, the
// skill's folders (read-only) and the run's scratch directory and cwd
// (read-write), then executes the script's program. Hand it to
// runners/exec.WithConfinement. It is safe for concurrent use.
type Confinement struct {
	c *launch.Confinement
}

// NewConfinement checks the operator's options. Each error names the
// setting at fault.
func NewConfinement(opts ConfineOptions) (*Confinement, error) {
	c, err := launch.NewConfinement(launch.ConfineOptions{ReadRoots: opts.ReadRoots, Network: opts.Network, MemoryMB: opts.MemoryMB})
	if err != nil {
		return nil, err
	}
	return &Confinement{c: c}, nil
}

// Available reports whether scripts can be confined here: nil, or an error
// wrapping ErrUnconfinable that says why. The first call starts the
// launcher once (a probe), so the answer is what the kernel actually
// allowed; later calls return the same answer.
func (c *Confinement) Available() error { return c.c.Available() }

func init() {
	launch.SetPublic(
		func(c *launch.Confinement) any {
			if c == nil {
				return (*Confinement)(nil)
			}
			return &Confinement{c: c}
		},
		func(p any) *launch.Confinement {
			if pc, _ := p.(*Confinement); pc != nil {
				return pc.c
			}
			return nil
		})
}
