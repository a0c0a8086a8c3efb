package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// CheckRelPath validates a user-supplied relative path without touching the file
// system (spec 000 §12.1, hardened): it must be non-empty and must not be absolute,
// start with `/`, hold a backslash, a NUL byte, a drive letter (`C:`), or any `..`
// segment. The error wraps core.ErrPathTraversal (or core.ErrInvalidArgument when empty).
func CheckRelPath(rel string) error {
	switch {
	case rel == "":
		return fmt.Errorf("empty file path: %w", core.ErrInvalidArgument)
	case strings.ContainsRune(rel, 0):
		return fmt.Errorf("file path %q holds a NUL byte: %w", rel, core.ErrPathTraversal)
	case strings.ContainsRune(rel, '\\'):
		return fmt.Errorf("file path %q holds a backslash: %w", rel, core.ErrPathTraversal)
	case strings.HasPrefix(rel, "/") || filepath.IsAbs(rel):
		return fmt.Errorf("file path %q is absolute: %w", rel, core.ErrPathTraversal)
	case len(rel) >= 2 && rel[1] == ':' && isASCIILetter(rel[0]):
		return fmt.Errorf("file path %q starts with a drive letter: %w", rel, core.ErrPathTraversal)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return fmt.Errorf("file path %q climbs out with '..': %w", rel, core.ErrPathTraversal)
		}
	}
	if c := path.Clean(rel); c == "." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("file path %q does not name a file inside the directory: %w", rel, core.ErrPathTraversal)
	}
	return nil
}

func isASCIILetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

// Resolve checks rel with CheckRelPath, joins it to base, and makes sure the
// result stays inside base once symlinks are resolved: the target itself when it
// exists, else its deepest existing ancestor. It returns the joined (unresolved)
// absolute path. A missing target is not an error here; callers stat it.
func Resolve(base, rel string) (string, error) {
	if err := CheckRelPath(rel); err != nil {
		return "", err
	}
	absBase, err := filepath.Abs(base)
	if err != nil {
		return "", fmt.Errorf("resolving base %q: %w", base, err)
	}
	joined := filepath.Join(absBase, filepath.FromSlash(rel))
	if !Within(absBase, joined) {
		return "", fmt.Errorf("file path %q leaves its directory: %w", rel, core.ErrPathTraversal)
	}
	realBase, err := filepath.EvalSymlinks(absBase)
	if err != nil {
		return "", fmt.Errorf("resolving base %q: %w", base, err)
	}
	real, err := evalExisting(joined)
	if err != nil {
		return "", fmt.Errorf("resolving %q: %w", rel, err)
	}
	if !Within(realBase, real) {
		return "", fmt.Errorf("file path %q resolves outside its directory through a symlink: %w", rel, core.ErrPathTraversal)
	}
	return joined, nil
}

// evalExisting resolves symlinks in p, or in its deepest existing ancestor when p
// does not exist, and re-appends the missing tail.
func evalExisting(p string) (string, error) {
	tail := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, tail), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if _, statErr := os.Lstat(p); statErr == nil {
				// A dangling or looping symlink: treat it as pointing nowhere safe.
				return "", fmt.Errorf("%w: broken symlink %q", core.ErrPathTraversal, p)
			}
			return "", err
		}
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("dangling symlink %q: %w", p, core.ErrPathTraversal)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, tail), nil
		}
		tail = filepath.Join(filepath.Base(p), tail)
		p = parent
	}
}

// Within reports whether target is base or lies below it (both absolute and clean).
func Within(base, target string) bool {
	rel, err := filepath.Rel(base, target)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// WithinAny reports whether target is one of bases or lies below one.
func WithinAny(bases []string, target string) bool {
	for _, b := range bases {
		if Within(b, target) {
			return true
		}
	}
	return false
}
