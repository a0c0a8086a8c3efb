package server

import (
	"errors"
	"fmt"
	"os"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// confinedScript checks, at the moment of use, that file of owner opens
// through an os.Root on the skills directory (no symlink leading out of the
// tree on the way) and that abs, the path the runner starts, leads to that
// same file now (verify after open). A path that leads elsewhere is an error
// wrapping core.ErrPathTraversal; a file that does not open, one wrapping
// core.ErrAssetMissing.
func confinedScript(owner *core.Skill, file, abs string) error {
	f, err := index.OpenResource(owner, file)
	if errors.Is(err, core.ErrAssetMissing) {
		return err
	}
	if err != nil { // a link leading out of the skills directory, most likely
		return fmt.Errorf("script %s of skill %s is not confined to its skills directory: %w: %w", file, owner.Path, core.ErrPathTraversal, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return fmt.Errorf("script %s of skill %s: %w", file, owner.Path, err)
	}
	byPath, err := os.Stat(abs)
	if err != nil || !os.SameFile(opened, byPath) {
		return fmt.Errorf("script %s of skill %s: its path no longer leads to the file inside the skills directory: %w",
			file, owner.Path, core.ErrPathTraversal)
	}
	return nil
}
