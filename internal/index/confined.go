package index

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/skills-mcp/skills-mcp/core"
)

// openInRoot opens the regular file abs through an os.Root on root, so that
// no symlink swapped in since indexing (a folder replaced by a link out of the
// tree) can lead the open outside root (issue 16, item 1). A path outside
// root, never the case for an indexed skill, is opened as it is. O_NONBLOCK
// keeps a FIFO swapped in from blocking; anything but a regular file is
// refused. It returns the file's size as its stat found it.
func openInRoot(root, abs string) (*os.File, int64, error) {
	rel, err := filepath.Rel(root, abs)
	var f *os.File
	if root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		f, err = os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	} else {
		var r *os.Root
		if r, err = os.OpenRoot(root); err != nil {
			return nil, 0, err
		}
		defer r.Close()
		f, err = r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &fs.PathError{Op: "open", Path: abs, Err: errors.New("not a regular file")}
	}
	return f, fi.Size(), nil
}

// readInRootCapped reads abs through openInRoot, refusing (before any byte
// is read, and again if it grew) a file over max bytes when max > 0.
func readInRootCapped(root, abs string, max int64) ([]byte, error) {
	f, size, err := openInRoot(root, abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max > 0 && size > max {
		return nil, &tooLargeError{size: size, limit: max}
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	data, err := readAllSized(r, size)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(data)) > max {
		return nil, &tooLargeError{size: int64(len(data)), limit: max}
	}
	return data, nil
}

// readAllSized is io.ReadAll starting from a buffer of the size the file
// said it has (one byte more, to see the end without growing): reading a
// whole tree's bodies with io.ReadAll's doubling from 512 bytes allocated
// about five times the bytes read. A file that grew since its stat still
// reads whole; size < 0 starts small.
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	n := 512
	if size >= 0 && size < 1<<30 {
		n = int(size) + 1
	}
	data := make([]byte, 0, n)
	for {
		m, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+m]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// confinedRoot is the directory reads of s's file are confined to: its
// skills directory, or for a skill reached through a symlink leading out of
// it (an installed skill, resolved once at indexing) the folder its file was
// resolved to.
func confinedRoot(s *core.Skill) string {
	if rel, err := filepath.Rel(s.Root, s.AbsPath); s.Root != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return s.Root
	}
	return filepath.Dir(s.AbsPath)
}

// ReadSkillFile reads the Markdown file of s (SKILL.md, or a tree skill's
// .md) as it is on disk now, confined to its skills directory at the moment
// of use: a folder replaced since indexing by a symlink leading out of the
// tree is refused. A file over max bytes (when max > 0) is refused before it
// is read, with an error wrapping core.ErrTooLarge.
func ReadSkillFile(s *core.Skill, max int64) ([]byte, error) {
	data, err := readInRootCapped(confinedRoot(s), s.AbsPath, max)
	if err != nil {
		var tl *tooLargeError
		if errors.As(err, &tl) {
			return nil, fmt.Errorf("reading skill %s: %s is %d bytes, over the limit of %d: %w", s.Path, s.AbsPath, tl.size, tl.limit, core.ErrTooLarge)
		}
		return nil, fmt.Errorf("reading skill %s: %w", s.Path, err)
	}
	return data, nil
}

// OpenResource opens file of owner's resource directory through an os.Root
// on its skills directory (see ReadFile), for a caller that must hold the
// file it checked: run_script compares it with what the path resolves to
// just before the run. The file must be a regular file.
func OpenResource(owner *core.Skill, file string) (*os.File, error) {
	if owner.ResourceDir == "" {
		return nil, fmt.Errorf("opening %q of skill %s: no resource directory: %w", file, owner.Path, core.ErrAssetMissing)
	}
	f, _, err := openResourceFile(owner, file, "opening")
	return f, err
}

// openResourceFile opens file of owner's resource directory through an os.Root on
// it and checks that it is a regular file; verb ("opening", "reading") starts
// its errors. O_NONBLOCK: opening a FIFO (or a device) must not block the
// handler forever; the regular-file check then refuses it.
func openResourceFile(owner *core.Skill, file, verb string) (*os.File, fs.FileInfo, error) {
	root, err := openResourceRoot(owner)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %q of skill %s: opening resource directory: %w", verb, file, owner.Path, err)
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.FromSlash(file), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, core.ErrAssetMissing)
		}
		return nil, nil, fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s %q of skill %s: %w", verb, file, owner.Path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s %q of skill %s: not a regular file: %w", verb, file, owner.Path, core.ErrAssetMissing)
	}
	return f, fi, nil
}

// SkillFile is ReadSkillFile bounded by the snapshot's skill file limit
// (index.max_skill_file_bytes).
func (sn *Snapshot) SkillFile(s *core.Skill) ([]byte, error) { return ReadSkillFile(s, sn.maxFile) }
