package index

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// Every read of a skill's files at the moment of use goes through the
// snapshot's confine.Root of its skills directory (issue 16, item 1; issue
// 27): one per root, built with the snapshot.

// confinedRoots returns the roots the reads of skills are confined to, one
// per directory: each skill's skills directory, and the folder of a skill
// installed through a link leading out of it (see fileRootDir).
func confinedRoots(skills []*core.Skill) map[string]*confine.Root {
	roots := map[string]*confine.Root{}
	for _, s := range skills {
		for _, dir := range []string{s.Root, fileRootDir(s)} {
			if _, ok := roots[dir]; !ok && dir != "" {
				roots[dir] = confine.NewRoot(dir)
			}
		}
	}
	return roots
}

// root returns the snapshot's Root of dir; a skill of another snapshot (or
// none, in tests) gets one built for the call.
func (sn *Snapshot) root(dir string) *confine.Root {
	if r, ok := sn.roots[dir]; ok {
		return r
	}
	return confine.NewRoot(dir)
}

// fileRootDir is the directory reads of s's file are confined to: its
// skills directory, or for a skill reached through a symlink leading out of
// it (an installed skill, resolved once at indexing) the folder its file was
// resolved to.
func fileRootDir(s *core.Skill) string {
	if s.Root != "" && confine.Within(s.Root, s.AbsPath) {
		return s.Root
	}
	return filepath.Dir(s.AbsPath)
}

// readSkillFile reads the Markdown file of s (SKILL.md, or a tree skill's
// .md) as it is on disk now, confined to its root at the moment of use: a
// folder replaced since indexing by a symlink leading out of the tree is
// refused. A file over max bytes (when max > 0) is refused before it is read,
// with an error wrapping core.ErrTooLarge.
func (sn *Snapshot) readSkillFile(s *core.Skill, max int64) ([]byte, error) {
	data, err := sn.root(fileRootDir(s)).ReadFile(s.AbsPath, max)
	if err != nil {
		var tl *confine.TooLargeError
		if errors.As(err, &tl) {
			return nil, fmt.Errorf("reading skill %s: %s is %d bytes, over the limit of %d: %w", s.Path, s.AbsPath, tl.Size, tl.Limit, core.ErrTooLarge)
		}
		return nil, fmt.Errorf("reading skill %s: %w", s.Path, err)
	}
	return data, nil
}

// SkillFile reads the Markdown file of s as readSkillFile does, bounded by
// the snapshot's skill file limit (index.max_skill_file_bytes).
func (sn *Snapshot) SkillFile(s *core.Skill) ([]byte, error) { return sn.readSkillFile(s, sn.maxFile) }

// ReadFile reads file from owner's resource directory (spec 000 §7.4, §12.1,
// §12.3). The path is checked with confine.Resolve (an error wrapping
// core.ErrPathTraversal when it leaves the directory, symlinks included), then
// the file is opened through the root, so a symlink swapped in afterwards
// cannot lead outside either. Its size is checked before any byte is read:
// over maxBytes (when maxBytes > 0) is an error wrapping core.ErrTooLarge; an
// absent file is an error wrapping core.ErrAssetMissing.
func (sn *Snapshot) ReadFile(owner *core.Skill, file string, maxBytes int64) ([]byte, error) {
	if owner.ResourceDir == "" {
		return nil, fmt.Errorf("reading %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	if _, err := confine.Resolve(owner.ResourceDir, file); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, core.ErrAssetMissing)
		}
		return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return sn.readInRoot(owner, file, maxBytes)
}

// readInRoot reads file through the root of owner's resource directory: the
// kernel-level confinement that holds even if the tree changes after the
// lexical and symlink checks of ReadFile.
func (sn *Snapshot) readInRoot(owner *core.Skill, file string, maxBytes int64) ([]byte, error) {
	f, fi, err := sn.openResource(owner, file, "reading")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := confine.ReadCapped(f, fi.Size(), maxBytes)
	var tl *confine.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("reading %q of skill %s: %d bytes exceeds the limit of %d bytes: %w", file, owner.Path, tl.Size, tl.Limit, core.ErrTooLarge)
	case err != nil:
		return nil, fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return data, nil
}

// OpenResource opens file of owner's resource directory through the root
// (see ReadFile), for a caller that must hold the file it checked:
// run_script compares it with what the path resolves to just before the
// run. The file must be a regular file.
func (sn *Snapshot) OpenResource(owner *core.Skill, file string) (*os.File, error) {
	if owner.ResourceDir == "" {
		return nil, fmt.Errorf("opening %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	f, _, err := sn.openResource(owner, file, "opening")
	return f, err
}

// openResource opens file of owner's resource directory confined to the
// directory and to the skills root; verb ("opening", "reading") starts its
// errors. Opening a FIFO (or a device) never blocks the handler; it is
// refused as not a regular file.
func (sn *Snapshot) openResource(owner *core.Skill, file, verb string) (*os.File, fs.FileInfo, error) {
	f, fi, err := sn.root(owner.Root).OpenIn(owner.ResourceDir, file)
	return f, fi, resourceError(owner, file, verb, err)
}

// resourceError words err, from confine.Root's OpenIn or StatIn, for file of
// owner; nil stays nil.
func resourceError(owner *core.Skill, file, verb string, err error) error {
	var dirErr *confine.DirError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &dirErr):
		return fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, err)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, core.ErrAssetMissing)
	case errors.Is(err, confine.ErrNotRegular):
		return fmt.Errorf("%s %q of skill %s: not a regular file: %w", verb, file, owner.Path, core.ErrAssetMissing)
	}
	return fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, err)
}

// StatNow stats file of owner's directory now, confined as ReadFile is.
func (sn *Snapshot) StatNow(owner *core.Skill, file string) (FileState, error) {
	if err := checkResourceFile(owner, file); err != nil {
		return FileState{}, err
	}
	fi, err := sn.root(owner.Root).StatIn(owner.ResourceDir, file)
	if err != nil {
		return FileState{}, resourceError(owner, file, "reading", err)
	}
	return FileState{Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// HashNow hashes file of owner's directory now, confined as ReadFile is: its
// digest, and the size and modification time of the very file opened.
func (sn *Snapshot) HashNow(owner *core.Skill, file string) (FileState, error) {
	if err := checkResourceFile(owner, file); err != nil {
		return FileState{}, err
	}
	f, fi, err := sn.openResource(owner, file, "reading")
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

// checkResourceFile refuses a file of a skill without a resource directory,
// and a path that is absolute, climbs with "..", or is otherwise unsafe.
func checkResourceFile(owner *core.Skill, file string) error {
	if owner.ResourceDir == "" {
		return fmt.Errorf("reading %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	if err := confine.CheckRelPath(file); err != nil {
		return fmt.Errorf("reading %q of skill %s: %w", file, owner.Path, err)
	}
	return nil
}
