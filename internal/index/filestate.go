package index

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// FileState is what one file of a skill's directory holds at the moment it
// is asked: enough to tell it changed (size, modification time) and, when
// hashed, its digest.
type FileState struct {
	Size    int64
	ModTime time.Time
	// Digest is "sha256:<hex>" of the bytes, "" when only stat'ed.
	Digest string
}

// Same reports whether two states of a file are those of one content, as
// far as a stat tells (a rewrite within the file system's time granularity
// that keeps the size goes unseen).
func (st FileState) Same(o FileState) bool { return st.Size == o.Size && st.ModTime.Equal(o.ModTime) }

// StatNow stats file of owner's directory now, confined as ReadFile is.
func StatNow(owner *core.Skill, file string) (FileState, error) {
	root, err := openConfined(owner, file)
	if err != nil {
		return FileState{}, err
	}
	defer root.Close()
	fi, err := root.Stat(filepath.FromSlash(file))
	if err != nil {
		return FileState{}, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	if !fi.Mode().IsRegular() {
		return FileState{}, fmt.Errorf("reading %q of skill %s: not a regular file", file, owner.Path)
	}
	return FileState{Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// HashNow hashes file of owner's directory now, confined as ReadFile is: its
// digest, and the size and modification time of the very file opened.
func HashNow(owner *core.Skill, file string) (FileState, error) {
	if err := checkResourceFile(owner, file); err != nil {
		return FileState{}, err
	}
	f, fi, err := openResourceFile(owner, file, "reading")
	if err != nil {
		return FileState{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return FileState{}, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return FileState{Size: fi.Size(), ModTime: fi.ModTime(), Digest: digestPrefix + hex.EncodeToString(h.Sum(nil))}, nil
}

// openConfined checks file as ReadFile does and opens owner's directory as
// an os.Root.
func openConfined(owner *core.Skill, file string) (*os.Root, error) {
	if err := checkResourceFile(owner, file); err != nil {
		return nil, err
	}
	return openResourceRoot(owner)
}

// checkResourceFile refuses a file of a skill without a resource directory,
// and a path that is absolute, climbs with "..", or is otherwise unsafe.
func checkResourceFile(owner *core.Skill, file string) error {
	if owner.ResourceDir == "" {
		return fmt.Errorf("reading %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	if err := sandbox.CheckRelPath(file); err != nil {
		return fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return nil
}
