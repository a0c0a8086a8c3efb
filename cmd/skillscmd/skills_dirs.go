package skillscmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// dirSpec is one entry of SKILLS_DIR or --skills-dir: a directory, absolute,
// and the name its skills' paths start with ("" for none).
type dirSpec struct {
	name, dir string
	given     string // dir as written (after ~ is expanded), for messages that echo it
}

// parseSkillsDirs reads a SKILLS_DIR value: directories separated by the
// path list separator, earlier wins a path. An entry NAME=DIR serves DIR's
// skills under NAME/ (index.Root.Prefix), so that several collections are
// served side by side without shadowing each other; NAME is one segment of
// letters, digits, `.`, `_` and `-` (an entry whose part before `=` is not one,
// `./a=b`, is a directory). A leading `~` is the home directory (JSON client
// configs pass the value without a shell to expand it). The same directory
// given twice is served once, under its first name; one name given to two
// directories is an error. Empty entries are ignored.
func parseSkillsDirs(value, home string) ([]dirSpec, error) {
	var out []dirSpec
	seen := map[string]bool{}
	names := map[string]string{}
	for _, entry := range filepath.SplitList(value) {
		if entry == "" {
			continue
		}
		name, dir := "", entry
		if n, d, ok := strings.Cut(entry, "="); ok && index.ValidPrefix(n) {
			name, dir = n, d
		} else if ok && n != "" && !strings.ContainsAny(n, `/\`) {
			return nil, usagef("SKILLS_DIR entry %q: the name before '=' may hold only letters, digits, '.', '_' and '-', starting with a letter or digit "+
				"(a directory whose name holds '=' is written ./%s)", entry, entry)
		}
		if dir == "" {
			return nil, usagef("SKILLS_DIR entry %q names no directory", entry)
		}
		dir, err := expandHome(dir, home)
		if err != nil {
			return nil, usagef("SKILLS_DIR entry %q: %w", entry, err)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, usagef("skills directory %q: %w", dir, err)
		}
		key := abs
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			key = real
		}
		if seen[key] {
			continue // d:d is d: its skills would only shadow themselves
		}
		seen[key] = true
		if name != "" {
			if other, taken := names[name]; taken {
				return nil, usagef("SKILLS_DIR names two directories %s: %s and %s; give each its own name", name, other, abs)
			}
			names[name] = abs
		}
		out = append(out, dirSpec{name: name, dir: abs, given: dir})
	}
	return out, nil
}

// expandHome replaces a leading `~` (alone or before a separator) with home.
func expandHome(dir, home string) (string, error) {
	if dir != "~" && !strings.HasPrefix(dir, "~/") && !strings.HasPrefix(dir, "~"+string(os.PathSeparator)) {
		if strings.HasPrefix(dir, "~") {
			return "", fmt.Errorf("%s: only ~ and ~/… are expanded (to $HOME); give the full path", dir)
		}
		return dir, nil
	}
	if home == "" {
		return "", fmt.Errorf("%s: HOME is not set to expand ~; give the full path", dir)
	}
	return filepath.Join(home, dir[1:]), nil
}
