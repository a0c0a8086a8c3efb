package watch

import (
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// adder is the part of *fsnotify.Watcher that watchTree uses.
type adder interface{ Add(path string) error }

// treeResult counts what watchTree did.
type treeResult struct {
	added, failed int
	firstErr      error // the first failed Add, naming its directory
}

// watchTree adds a watch on dir and on every directory below it, skipping
// dot-directories and not following symlinks. Each directory is watched before
// it is read, so an entry created meanwhile is either seen by the walk or
// reported by the watch. Once the kernel's watch limit is reached the walk
// stops: every further Add would fail the same way.
func watchTree(w adder, dir string) treeResult {
	var res treeResult
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d == nil || err != nil {
			// dir vanished, or a directory already added could not be read:
			// its watch reports what happens in it from now on.
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		runtime.Gosched() // a background walk: let requests run between two directories
		if !res.add(w, p) {
			return filepath.SkipAll
		}
		return nil
	})
	return res
}

// add watches dir, counting the outcome; false means the kernel's watch limit
// is reached, so any further Add would fail the same way.
func (res *treeResult) add(w adder, dir string) bool {
	err := w.Add(dir)
	if err == nil {
		res.added++
		return true
	}
	res.failed++
	if res.firstErr == nil {
		res.firstErr = &fs.PathError{Op: "watching", Path: dir, Err: err}
	}
	return !errors.Is(err, syscall.ENOSPC)
}
