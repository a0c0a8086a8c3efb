package scripts

import (
	"errors"
	"fmt"
	"os"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// openScript opens file of owner through the snapshot's confine.Root of its
// skills directory (no symlink leading out of the tree on the way), a
// regular file only. A file that does not open is an error wrapping
// core.ErrAssetMissing; one reached only by leaving the tree, an error
// wrapping core.ErrPathTraversal.
func openScript(snap *index.Snapshot, owner *core.Skill, file string) (*os.File, error) {
	f, err := snap.OpenResource(owner, file)
	if errors.Is(err, core.ErrAssetMissing) {
		return nil, err
	}
	if err != nil { // a link leading out of the skills directory, most likely
		return nil, fmt.Errorf("script %s of skill %s is not confined to its skills directory: %w: %w", file, owner.Path, core.ErrPathTraversal, err)
	}
	return f, nil
}

// openFile opens the script at abs through a confine.Root on dir, where it
// lies, a regular file only, for a run prepared outside a snapshot (RunFile).
func openFile(dir, abs, file string) (*os.File, error) {
	f, _, err := confine.NewRoot(dir).Open(abs)
	switch {
	case errors.Is(err, confine.ErrNotRegular):
		return nil, fmt.Errorf("opening script %s: not a regular file: %w", file, core.ErrAssetMissing)
	case err != nil:
		return nil, fmt.Errorf("opening script %s: %w: %w", file, core.ErrPathTraversal, err)
	}
	return f, nil
}

// stillAt is the one check that abs, the path a runner gives an interpreter,
// still leads to f, the script opened confined (verify after open): a folder
// swapped for a symlink out of the tree since f was opened is an error
// wrapping core.ErrPathTraversal. Runs.Run makes it just before it calls the
// runner; no runner makes it again.
func stillAt(f *os.File, abs, file string) error {
	opened, err := f.Stat()
	if err != nil {
		return fmt.Errorf("running %s: %w", file, err)
	}
	if byPath, err := os.Stat(abs); err != nil || !os.SameFile(opened, byPath) {
		return fmt.Errorf("running %s: its path no longer leads to the file inside the skills directory: %w", file, core.ErrPathTraversal)
	}
	return nil
}
