package execrun

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// runConfined runs cmd, built as for an unconfined run, through the
// confinement's launcher: the program is the installation's (a shim
// resolved), HOME and TMPDIR point into the run's scratch directory, PATH
// starts with the runners' installations, and the launcher is granted the
// skill's folders read-only and the scratch directory and a cwd outside
// them read-write.
func (r *Runner) runConfined(ctx context.Context, cmd *osexec.Cmd, req core.RunRequest, marker string) (core.RunResult, error) {
	fail := func(err error) (core.RunResult, error) {
		return core.RunResult{}, fmt.Errorf("running %s: %w", req.File, err)
	}
	if err := r.confine.Available(); err != nil {
		return fail(err)
	}
	install := r.confine.Install(r.path)
	if install.Err != nil {
		return fail(install.Err)
	}
	scratch := req.Scratch
	if scratch == "" {
		s, err := (*confine.WorkDirs)(nil).NewScratch() // under os.TempDir()
		if err != nil {
			return fail(err)
		}
		defer func() {
			if err := s.Remove(); err != nil {
				r.logger.Warn("removing a run's scratch directory", "file", req.File, "error", err)
			}
		}()
		scratch = s.Dir()
	}
	home, tmp := filepath.Join(scratch, ".home"), filepath.Join(scratch, ".tmp")
	for _, d := range []string{home, tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fail(fmt.Errorf("preparing the scratch directory: %w", err))
		}
	}
	cmd.Env = confinedEnv(cmd.Env, home, tmp, r.confine.InstallBins())
	cmd.Path = install.Program
	cmd.Args[0] = install.Program
	g := launch.Grants{ReadOnly: append([]string{req.SkillDir}, req.ReadDirs...), ReadWrite: []string{scratch}}
	if !confine.WithinAny(g.ReadOnly, cmd.Dir) && !confine.WithinAny(g.ReadWrite, cmd.Dir) {
		g.Cwd = cmd.Dir // the cwd under a write root
	}
	started, err := r.confine.Prepare(cmd, g)
	if err != nil {
		return fail(err)
	}
	res, err := r.supervise(ctx, cmd, req, marker, started)
	res.Confinement = r.confine.Summary()
	return res, err
}

// confinedEnv is env with HOME and TMPDIR in the scratch directory and the
// installations' directories first in PATH.
func confinedEnv(env []string, home, tmp string, bins []string) []string {
	out := make([]string, 0, len(env)+2)
	path := ""
	for _, e := range env {
		switch name, value, _ := strings.Cut(e, "="); name {
		case "HOME", "TMPDIR":
		case "PATH":
			path = value
		default:
			out = append(out, e)
		}
	}
	entries := append([]string{}, bins...)
	for _, p := range filepath.SplitList(path) {
		if !contains(entries, p) {
			entries = append(entries, p)
		}
	}
	out = append(out, "HOME="+home, "TMPDIR="+tmp, "PATH="+strings.Join(entries, string(filepath.ListSeparator)))
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
