package skillscmd

import (
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/layout"
)

// validateTarget is what validate checks: a skills directory and the
// directory of its config.yaml.
type validateTarget struct {
	skillsDir, configDir string
	// repoRoot is the content repository's root when DIR was one (it holds
	// skills/): the skills directory is then its skills/ folder.
	repoRoot string
	// prefix is the name given to the directory (NAME=DIR): its skills' paths start with it.
	prefix string
	// displayDir, when set, is what files are named relative to (else configDir).
	displayDir string
}

// findValidateTarget decides what `validate DIR` checks: the skills/ folder
// of a content repository (skills/ beside config.yaml, the layout init writes
// and git mode serves), or DIR itself when it looks like a skills directory,
// whole, exactly as serve serves it (a collection with a skills/ folder inside
// is served as skills/…, and its problems are the ones serve's start-up log
// counts). Anything else is a usage error in one line saying what to pass:
// validating a home directory or a source tree would print one error per
// Markdown file.
func findValidateTarget(dir string) (validateTarget, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return validateTarget{}, usagef("validate: %s is not a directory", dir)
	}
	if layout.IsContentRepo(dir) {
		return validateTarget{skillsDir: filepath.Join(dir, "skills"), configDir: dir, repoRoot: dir}, nil
	}
	if !layout.LooksLikeSkillsDir(dir) {
		shown := dir
		if abs, err := filepath.Abs(dir); err == nil {
			shown = abs
		}
		return validateTarget{}, usagef("validate: no skills root found in %s (no skills/ folder, %s or skill file); "+
			"pass the content repository or the skills directory to check: skills-mcp validate DIR", shown, config.FileName)
	}
	return validateTarget{skillsDir: dir, configDir: layout.ConfigDir(dir)}, nil
}
