package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/go-git/go-git/v5"
)

// removeUntracked deletes from the worktree every file and directory the index
// does not track, ignored ones included (git clean -fdx): the cache holds
// exactly the remote commit. The .git directory is kept.
func (s *syncer) removeUntracked() error {
	idx, err := s.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("reading the index of %s: %w", s.dir, s.red.wrap(err))
	}
	files := make(map[string]bool, len(idx.Entries))
	dirs := map[string]bool{}
	for _, e := range idx.Entries {
		files[e.Name] = true
		for d := path.Dir(e.Name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	walkErr := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(s.dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case rel == git.GitDirName:
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case files[rel]: // a tracked file, link or submodule
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir() && dirs[rel]:
			return nil
		case d.IsDir():
			if err := os.RemoveAll(p); err != nil {
				return err
			}
			return filepath.SkipDir
		default:
			return os.Remove(p)
		}
	})
	if walkErr != nil && !errors.Is(walkErr, fs.ErrNotExist) {
		return fmt.Errorf("removing untracked files from %s: %w", s.dir, walkErr)
	}
	return nil
}
