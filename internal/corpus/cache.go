package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// generatorVersion names the output of this package's renderer: change it
// whenever Plan or Write would write different bytes, so that cached corpora
// written by an older generator are not reused.
const generatorVersion = "1"

// completeMarker is written last into a cached corpus; a directory without it
// is an interrupted write. Its name starts with a dot, so the index skips it.
const completeMarker = ".corpus-complete"

// CacheRoot is the directory Cached keeps corpora under when given "":
// $SKILLS_BENCH_CORPORA, else skills-mcp-corpora in the system temp directory.
func CacheRoot() string {
	if dir := os.Getenv("SKILLS_BENCH_CORPORA"); dir != "" {
		return dir
	}
	return filepath.Join(os.TempDir(), "skills-mcp-corpora")
}

// Cached returns the corpus of opts written under root (CacheRoot when root is
// ""), writing it on first use. Corpora are deterministic, so a complete copy
// left by an earlier run, or by a benchmark of another package running at the
// same time, is reused: each writer fills a private directory and renames it
// into place.
func Cached(root string, opts Options) (*Corpus, string, error) {
	c, err := Plan(opts)
	if err != nil {
		return nil, "", err
	}
	if root == "" {
		root = CacheRoot()
	}
	dir := filepath.Join(root, fmt.Sprintf("v%s-skills%d-seed%x", generatorVersion, c.Options.Skills, c.Options.Seed))
	if isComplete(dir) {
		return c, dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, "", fmt.Errorf("caching corpus: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".writing-")
	if err != nil {
		return nil, "", fmt.Errorf("caching corpus: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if _, err := c.Write(tmp); err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), []byte(generatorVersion+"\n"), 0o644); err != nil {
		return nil, "", fmt.Errorf("caching corpus: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if isComplete(dir) {
			return c, dir, nil // another writer got there first
		}
		if errors.Is(err, fs.ErrExist) || isDir(dir) {
			// an interrupted write: replace it
			if rmErr := os.RemoveAll(dir); rmErr != nil {
				return nil, "", fmt.Errorf("caching corpus: %w", rmErr)
			}
			err = os.Rename(tmp, dir)
		}
		if err != nil {
			return nil, "", fmt.Errorf("caching corpus: %w", err)
		}
	}
	return c, dir, nil
}

func isComplete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, completeMarker))
	return err == nil
}

func isDir(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}
