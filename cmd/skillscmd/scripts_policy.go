package skillscmd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	scriptrun "github.com/skills-mcp/skills-mcp/internal/scripts"
)

// scriptPolicy reads the operator's settings for script runs (issue 26,
// items 1 and 7) and applies them to cfg: the bound of runs at once
// (SKILLS_SCRIPTS_MAX_CONCURRENT, which the content's scripts.max_concurrent
// may lower, never raise) becomes cfg.Scripts.MaxConcurrent, and the write
// roots (SKILLS_SCRIPTS_WRITE_ROOTS), checked against the directories the
// server trusts, make the WorkDirs every run goes through. A wrong value is
// a usage error naming the variable.
func scriptPolicy(getenv func(string) string, cfg *config.Config, c *content, stateDir string, log hclog.Logger) (*confine.WorkDirs, error) {
	limit, err := operatorMaxConcurrent(getenv(scriptrun.MaxConcurrentEnv))
	if err != nil {
		return nil, err
	}
	if getenv(scriptrun.MaxConcurrentEnv) == "" && c.loaded.ByOperator("scripts.max_concurrent") && c.loaded.Config.Scripts.MaxConcurrent > 0 {
		limit = c.loaded.Config.Scripts.MaxConcurrent // the operator's settings file's bound
	}
	switch n := cfg.Scripts.MaxConcurrent; {
	case n > limit:
		log.Warn("scripts.max_concurrent is above the operator's bound; the operator's bound holds",
			"scripts.max_concurrent", n, scriptrun.MaxConcurrentEnv, limit)
	case n > 0:
		limit = n
	}
	cfg.Scripts.MaxConcurrent = limit
	roots := confine.SplitWriteRoots(getenv(confine.WriteRootsEnv))
	if len(roots) == 0 && c.loaded.ByOperator("wasm.cwd_roots") {
		roots = c.loaded.Config.Wasm.CwdRoots // the operator's settings file's write roots
	}
	work, err := confine.NewWorkDirs(roots, confine.ScratchBase(stateDir), trustedDirs(c, stateDir))
	if err != nil {
		return nil, usagef("%w", err)
	}
	log.Debug("script runs", "max_concurrent", limit, "write_roots", work.Roots(), "scratch", confine.ScratchBase(stateDir))
	return work, nil
}

// operatorMaxConcurrent is the value of SKILLS_SCRIPTS_MAX_CONCURRENT: a
// whole number, at least 1; scriptrun.DefaultMaxConcurrent() when unset.
func operatorMaxConcurrent(value string) (int, error) {
	value = strings.TrimSpace(value)
	if value == "" {
		return scriptrun.DefaultMaxConcurrent(), nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 {
		return 0, usagef("%s=%q: want a whole number of script runs at once, at least 1 (unset: %d, twice the cores, at most 8)",
			scriptrun.MaxConcurrentEnv, value, scriptrun.DefaultMaxConcurrent())
	}
	return n, nil
}

// trustedDirs are the directories a write root may neither hold nor lie
// inside: what the server reads as trusted (the skills, config.yaml, the
// git clone), its own state, and its executable's directory.
func trustedDirs(c *content, stateDir string) []confine.Protected {
	dirs := []confine.Protected{{Dir: stateDir, What: "the server's state directory (SKILLS_STATE_DIR)"}}
	for _, r := range c.roots {
		dirs = append(dirs, confine.Protected{Dir: r.Dir, What: "a skills directory"})
	}
	if c.loaded.Path != "" {
		dirs = append(dirs, confine.Protected{Dir: filepath.Dir(c.loaded.Path), What: "the content root (config.yaml)"})
	}
	if c.git != nil {
		dirs = append(dirs, confine.Protected{Dir: c.git.dir, What: "the git clone (SKILLS_CACHE_DIR)"})
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dirs = append(dirs, confine.Protected{Dir: filepath.Dir(exe), What: "the directory of the server's executable"})
	}
	return dirs
}
