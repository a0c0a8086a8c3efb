package validate

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// buildFiles are the build recipes a content repository may name its build
// products in.
var buildFiles = []string{"Makefile", "makefile", "GNUmakefile"}

// maxBuildFileBytes bounds the part of a build recipe searched.
const maxBuildFileBytes = 1 << 20

// buildRecipe reports a build recipe that names the missing file abs, found
// in its directory or one above it, up to the repository's root (a folder
// holding .git) and at most eight levels up: abs is then a build product,
// absent from a fresh clone until the recipe runs (the example skills'
// scripts/slugify.wasm, built by `make examples-wasm`). It returns the
// recipe's path.
func buildRecipe(abs string) (string, bool) {
	dir := filepath.Dir(abs)
	for range 8 {
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			return "", false
		}
		for _, name := range buildFiles {
			p := filepath.Join(dir, name)
			if namesFile(p, filepath.ToSlash(rel)) {
				return p, true
			}
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
	return "", false
}

// namesFile reports whether the file at p (read up to maxBuildFileBytes)
// holds rel as a word: not as the tail of a longer path.
func namesFile(p, rel string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBuildFileBytes))
	if err != nil {
		return false
	}
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(rel))
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || bytes.IndexByte([]byte(" \t\n=:\"'("), data[at-1]) >= 0 {
			return true
		}
		i = at + 1
	}
}
