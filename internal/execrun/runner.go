package execrun

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// defaultGrace is how long a timed-out script has between SIGTERM and SIGKILL (spec 000 §8.4).
const defaultGrace = 5 * time.Second

var _ core.Runner = (*Runner)(nil)

// Runner runs scripts with one native interpreter command ("bash", "npx tsx").
// It is immutable after New and safe for concurrent use.
type Runner struct {
	program string
	args    []string
	path    string // the program's absolute path, found in New
	pathErr error  // why New found none: the error of every Run
	grace   time.Duration
	// cancelGrace replaces grace, when shorter, for a run whose context was
	// cancelled (its caller gave up, the server is stopping).
	cancelGrace time.Duration
	drain       time.Duration
	logger      hclog.Logger
	// confine, when set, runs every script through its launcher (confined.go).
	confine *launch.Confinement
	passEnv []string          // server variables passed through
	procs   *launch.Processes // the server's runs in progress, or nil
}

// Option configures a Runner.
type Option func(*Runner)

// WithGrace sets the time between SIGTERM and SIGKILL when a script times out;
// 5 seconds when not given (spec 000 §8.4). Zero or less kills at once.
func WithGrace(d time.Duration) Option {
	return func(r *Runner) { r.grace = max(d, 0) }
}

// WithCancelGrace sets the time between SIGTERM and SIGKILL when the run's
// context is cancelled rather than timed out (the client cancelled the
// request, the server is stopping), when shorter than the grace: a server
// stopping within its exit budget kills its scripts inside it (issue 26,
// item 6). Without it a cancelled run gets the grace.
func WithCancelGrace(d time.Duration) Option {
	return func(r *Runner) { r.cancelGrace = max(d, 0) }
}

// WithLogger sets where the runner logs (stderr only); nil means no logging.
func WithLogger(l hclog.Logger) Option {
	return func(r *Runner) {
		if l != nil {
			r.logger = l
		}
	}
}

// WithConfinement runs every script confined by c:
// in its own user and network namespaces, with resource limits, and with
// Landlock granting only the system locations, the runners' installations,
// the operator's read roots, the skill's folders (read-only) and the run's
// scratch directory and cwd (read-write). A script that cannot be confined
// is not run. Nil runs scripts unconfined.
func WithConfinement(c *launch.Confinement) Option {
	return func(r *Runner) { r.confine = c }
}

// WithProcesses registers every run in p, the server's table of the runs
// in progress, and once a run ends kills what it left reparented to the
// server (a subreaper) that no run in progress claims. The command builds
// p; without it a runner registers nothing and kills no orphan (a run's
// process group and the processes holding its marker are killed all the
// same). It is the one option runners/exec does not offer: a custom build
// cannot make a *launch.Processes.
func WithProcesses(p *launch.Processes) Option {
	return func(r *Runner) { r.procs = p }
}

// WithPassEnv passes the server's variables of those names (that it sets)
// through to scripts, besides the minimal environment; the names have
// passed the command's check (none is a variable the run sets itself).
func WithPassEnv(names []string) Option {
	return func(r *Runner) { r.passEnv = names }
}

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
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return nil, fmt.Errorf("creating exec runner: empty runner command: %w", core.ErrInvalidArgument)
	}
	r := &Runner{
		program: fields[0],
		args:    fields[1:],
		grace:   defaultGrace,
		drain:   defaultDrainTimeout,
		logger:  hclog.NewNullLogger(),
	}
	r.cancelGrace = -1
	for _, opt := range opts {
		opt(r)
	}
	if r.cancelGrace < 0 || r.cancelGrace > r.grace {
		r.cancelGrace = r.grace
	}
	if filepath.Base(r.program) != r.program && !filepath.IsAbs(r.program) {
		return nil, fmt.Errorf("creating exec runner %q: the program %q is a relative path; give a name found in PATH or an absolute path: %w",
			command, r.program, core.ErrInvalidArgument)
	}
	r.path, r.pathErr = lookPath(r.program)
	if r.confine != nil && r.pathErr == nil {
		r.confine.Register(r.path) // its installation is resolved at the first confined run
	}
	return r, nil
}

// String returns the runner command as configured, normalised to single spaces.
func (r *Runner) String() string {
	return strings.Join(append([]string{r.program}, r.args...), " ")
}

// Run executes `program args... req.ScriptPath` in req.Dir with stdin closed, the
// minimal environment of launch.MinimalEnv, and stdout and stderr each capped
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
	if err := launch.CheckRequest(req); err != nil {
		return core.RunResult{}, err
	}
	env, err := launch.MinimalEnv(req.SkillDir, req.Args)
	if err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	if r.pathErr != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, r.pathErr)
	}
	if err := ctx.Err(); err != nil {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	dir := req.Dir
	if dir == "" {
		dir = req.SkillDir
	}
	env = append(env, launch.PassedEnv(r.passEnv)...)
	marker := launch.NewRunMarker() // finds what escapes the process group
	cmd := &osexec.Cmd{
		Path: r.path,
		Args: append(append([]string{r.program}, r.args...), req.ScriptPath),
		Env:  append(env, marker),
		Dir:  dir,
		// Stdin stays nil: the child reads from the null device.
	}
	launch.StartInGroup(cmd)
	if r.confine == nil {
		return r.supervise(ctx, cmd, req, marker, nil)
	}
	return r.runConfined(ctx, cmd, req, marker)
}

// lookPath finds program: a bare name in the absolute directories of the
// server's PATH, in order; an absolute path as it is. The result is absolute.
func lookPath(program string) (string, error) {
	if filepath.IsAbs(program) {
		path, err := osexec.LookPath(program)
		if err != nil {
			return "", fmt.Errorf("runner program %q cannot be run: %w", program, err)
		}
		return path, nil
	}
	var lastErr error
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) { // "", "." or "bin" would find the program in the working directory
			continue
		}
		path, err := osexec.LookPath(filepath.Join(dir, program))
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			lastErr = err
		}
	}
	if lastErr != nil && !errors.Is(lastErr, osexec.ErrNotFound) {
		return "", fmt.Errorf("runner program %q not found in PATH when the server started (absolute entries only): %w: %w", program, osexec.ErrNotFound, lastErr)
	}
	return "", fmt.Errorf("runner program %q not found in PATH when the server started (absolute entries only): %w", program, osexec.ErrNotFound)
}
