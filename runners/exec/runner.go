package exec

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/execrun"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

var _ core.Runner = (*Runner)(nil)

// Runner runs scripts with one native interpreter command ("bash", "npx tsx").
// It is immutable after New and safe for concurrent use.
type Runner struct{ r *execrun.Runner }

// Option configures a Runner.
type Option struct{ o execrun.Option }

// WithGrace sets the time between SIGTERM and SIGKILL when a script times out;
// 5 seconds when not given (spec 000 §8.4). Zero or less kills at once.
func WithGrace(d time.Duration) Option { return Option{execrun.WithGrace(d)} }

// WithCancelGrace sets the time between SIGTERM and SIGKILL when the run's
// context is cancelled rather than timed out (the client cancelled the
// request, the server is stopping), when shorter than the grace: a server
// stopping within its exit budget kills its scripts inside it (issue 26,
// item 6). Without it a cancelled run gets the grace.
func WithCancelGrace(d time.Duration) Option { return Option{execrun.WithCancelGrace(d)} }

// WithLogger sets where the runner logs (stderr only); nil means no logging.
func WithLogger(l hclog.Logger) Option { return Option{execrun.WithLogger(l)} }

// WithConfinement runs every script confined by c:
// in its own user and network namespaces, with resource limits, and with
// Landlock granting only the system locations, the runners' installations,
// the operator's read roots, the skill's folders (read-only) and the run's
// scratch directory and cwd (read-write). A script that cannot be confined
// is not run. Nil runs scripts unconfined.
func WithConfinement(c *sandbox.Confinement) Option {
	return Option{execrun.WithConfinement(launch.FromPublic(c))}
}

// WithPassEnv passes the server's variables of those names (that it sets)
// through to scripts, besides the minimal environment; the names have
// passed the command's check (none is a variable the run sets itself).
func WithPassEnv(names []string) Option { return Option{execrun.WithPassEnv(names)} }

// New returns a runner for the configured runner string of one extension:
// command is split on whitespace into a program and its leading arguments
// ("npx tsx" runs `npx tsx SCRIPT`), never through a shell. The program is
// resolved to an absolute path here, once (the server calls New at start):
// a bare name in the absolute directories of the server's PATH (relative
// entries such as "." are skipped), a path as it is. So what runs never
// depends on a run's working directory nor on a later change of PATH. A
// program not found is not an error here (a server may serve skills whose
// interpreter is not installed): each Run answers with it. An empty command,
// or a program given as a relative path ("./bin/tool"), is an error wrapping
// core.ErrInvalidArgument.
func New(command string, opts ...Option) (*Runner, error) {
	inner := make([]execrun.Option, 0, len(opts))
	for _, opt := range opts {
		if opt.o != nil {
			inner = append(inner, opt.o)
		}
	}
	r, err := execrun.New(command, inner...)
	if err != nil {
		return nil, err
	}
	return &Runner{r}, nil
}

// String returns the runner command as configured, normalised to single spaces.
func (r *Runner) String() string { return r.r.String() }

// Run executes `program args... req.ScriptPath` in req.Dir with stdin closed, the
// minimal environment of sandbox.MinimalEnv, and stdout and stderr each capped
// at req.MaxOutputBytes. The process leads its own process group. When
// req.Timeout elapses or ctx's deadline passes, the group gets SIGTERM, then
// SIGKILL after the grace period, and the result is a timeout (exit code
// core.TimeoutExitCode, core.TimeoutMarker appended to stderr). When ctx is
// cancelled otherwise the group is stopped the same way and Run returns the
// partial result with an error wrapping context.Canceled. Whatever happens, no
// process of the group is left running when Run returns.
//
// Run returns an error without a result when the script cannot start: an
// invalid argument name (wrapping core.ErrInvalidArgument), a program New did
// not find (wrapping exec.ErrNotFound), a missing working directory.
func (r *Runner) Run(ctx context.Context, req core.RunRequest) (core.RunResult, error) {
	return r.r.Run(ctx, req)
}
