package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// ResolveDir returns the working directory of a script run from the optional
// cwd argument of run_script:
//   - "" (or "." and its spellings) is skillDir itself;
//   - an absolute cwd must name an existing directory; the error wraps
//     core.ErrInvalidArgument and names it;
//   - a relative cwd is resolved inside skillDir with Resolve, so it may not climb
//     out (lexically or through a symlink; the error wraps core.ErrPathTraversal),
//     and must name an existing directory (core.ErrInvalidArgument otherwise).
func ResolveDir(skillDir, cwd string) (string, error) {
	if isCurrentDir(cwd) {
		return skillDir, nil
	}
	dir := ""
	if filepath.IsAbs(cwd) {
		if strings.ContainsRune(cwd, 0) {
			return "", fmt.Errorf("resolving working directory %q: holds a NUL byte: %w", cwd, core.ErrInvalidArgument)
		}
		dir = filepath.Clean(cwd)
	} else {
		resolved, err := Resolve(skillDir, cwd)
		switch {
		case errors.Is(err, core.ErrPathTraversal) || errors.Is(err, core.ErrInvalidArgument):
			return "", fmt.Errorf("resolving working directory %q: %w", cwd, err)
		case err != nil: // the file system refused the name (too long, a file as a parent)
			return "", fmt.Errorf("resolving working directory %q: %v: %w", cwd, err, core.ErrInvalidArgument)
		}
		dir = resolved
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("resolving working directory %q: does not exist: %w", cwd, core.ErrInvalidArgument)
	case err != nil:
		return "", fmt.Errorf("resolving working directory %q: %v: %w", cwd, err, core.ErrInvalidArgument)
	case !fi.IsDir():
		return "", fmt.Errorf("resolving working directory %q: not a directory: %w", cwd, core.ErrInvalidArgument)
	}
	return dir, nil
}

// isCurrentDir reports whether cwd names the directory itself: "", ".", "./", "./.".
func isCurrentDir(cwd string) bool {
	for _, seg := range strings.Split(cwd, "/") {
		if seg != "" && seg != "." {
			return false
		}
	}
	return !strings.HasPrefix(cwd, "/")
}
