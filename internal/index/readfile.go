package index

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// ReadFile reads file from owner's resource directory (spec 000 §7.4, §12.1,
// §12.3). The path is checked with sandbox.Resolve (an error wrapping
// core.ErrPathTraversal when it leaves the directory, symlinks included), then
// the file is opened through an os.Root on the resource directory, so a symlink
// swapped in afterwards cannot lead outside either. Its size is checked before
// any byte is read: over maxBytes (when maxBytes > 0) is an error wrapping
// core.ErrTooLarge; an absent file is an error wrapping core.ErrAssetMissing.
func ReadFile(owner *core.Skill, file string, maxBytes int64) ([]byte, error) {
	if owner.ResourceDir == "" {
		return nil, fmt.Errorf("reading %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	if _, err := sandbox.Resolve(owner.ResourceDir, file); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, core.ErrAssetMissing)
		}
		return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return readInRoot(owner, file, maxBytes)
}

// readInRoot reads file through an os.Root on owner's resource directory: the
// kernel-level confinement that holds even if the tree changes after the
// lexical and symlink checks of ReadFile.
func readInRoot(owner *core.Skill, file string, maxBytes int64) ([]byte, error) {
	f, fi, err := openResourceFile(owner, file, "reading")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if maxBytes > 0 && fi.Size() > maxBytes {
		return nil, tooLarge(owner, file, fi.Size(), maxBytes)
	}
	r := io.Reader(f)
	if maxBytes > 0 {
		r = io.LimitReader(f, maxBytes+1) // the file may grow after the stat
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	if maxBytes > 0 && int64(len(data)) > maxBytes {
		return nil, tooLarge(owner, file, int64(len(data)), maxBytes)
	}
	return data, nil
}

// openResourceRoot opens owner's resource directory as an os.Root through
// the root of its skills directory, so the directory itself is confined at
// the moment of use too: replaced since indexing by a symlink leading out of
// the skills directory, it is refused (issue 16, item 1). A resource
// directory outside its skills root (never the case for an indexed skill) is
// opened as it is.
func openResourceRoot(owner *core.Skill) (*os.Root, error) {
	rel, err := filepath.Rel(owner.Root, owner.ResourceDir)
	if owner.Root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return os.OpenRoot(owner.ResourceDir)
	}
	top, err := os.OpenRoot(owner.Root)
	if err != nil {
		return nil, err
	}
	defer top.Close()
	return top.OpenRoot(rel)
}

// tooLarge is the §12.3 error: it names the file, its size and the limit.
func tooLarge(owner *core.Skill, file string, size, limit int64) error {
	return fmt.Errorf("reading %q of skill %s: %d bytes exceeds the limit of %d bytes: %w", file, owner.Path, size, limit, core.ErrTooLarge)
}
