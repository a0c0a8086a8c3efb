package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/sandbox"
)

// discovered is one Markdown file found under a root.
type discovered struct {
	// Rel is the path relative to the root, `/` separators (`ui/react/auth.md`).
	Rel string
	// Abs is the absolute path, under the root as given (not symlink-resolved).
	Abs string
}

// discover walks root for skill files (spec 000 §4.1): `.md` files, skipping
// dot-files and dot-directories, skill resource directories (a directory `X/`
// beside `X.md`), and directory symlinks. A symlinked `.md` file counts only when
// it resolves to a regular file inside root. Unreadable subdirectories are
// skipped with a warning; an unreadable root is an error. The result is sorted by Rel.
func discover(root string, logger hclog.Logger) ([]discovered, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	fi, err := os.Stat(realRoot)
	if err != nil {
		return nil, fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("reading skills directory %s: not a directory", root)
	}
	var found []discovered
	walkErr := filepath.WalkDir(realRoot, func(p string, d fs.DirEntry, err error) error {
		if p == realRoot {
			if err != nil {
				return fmt.Errorf("reading skills directory %s: %w", root, err)
			}
			return nil
		}
		rel, relErr := filepath.Rel(realRoot, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			logger.Warn(fmt.Sprintf("skipping %s: %v", rel, err))
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if isSkillFile(realRoot, p+".md") {
				return filepath.SkipDir // a resource directory: its .md files are assets
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".md") && isSkillFile(realRoot, p) {
			found = append(found, discovered{Rel: rel, Abs: filepath.Join(root, filepath.FromSlash(rel))})
		}
		return nil
	})
	if walkErr != nil {
		return nil, walkErr
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Rel < found[j].Rel })
	return found, nil
}

// isSkillFile reports whether p is a regular file, or a symlink to a regular file
// that stays inside realRoot.
func isSkillFile(realRoot, p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		return true
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil || !sandbox.Within(realRoot, target) {
		return false
	}
	tfi, err := os.Stat(target)
	return err == nil && tfi.Mode().IsRegular()
}
