package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// ArgEnvPrefix starts the name of every environment variable that carries a
// script argument: argument "name" reaches the script as SKILL_ARG_NAME.
const ArgEnvPrefix = "SKILL_ARG_"

// SkillDirEnv names the environment variable that holds the skill's resource directory.
const SkillDirEnv = "SKILL_DIR"

// hostDefaults lists the only variables a child takes from the server's
// environment, with the value used when the server's is unset or empty. An
// empty default means the variable is left out when the server has none.
var hostDefaults = []struct{ name, fallback string }{
	{"PATH", "/usr/local/bin:/usr/bin:/bin"},
	{"HOME", ""},
	{"LANG", "C.UTF-8"},
	{"TMPDIR", ""}, // filled with os.TempDir() at call time
}

// CheckArgName reports whether name may become an environment variable: it must
// be non-empty and hold only ASCII letters, digits, '_' and '-' (a hyphen
// becomes '_' in the variable name: client-id → SKILL_ARG_CLIENT_ID). The error
// wraps core.ErrInvalidArgument and names the argument.
func CheckArgName(name string) error {
	if name == "" {
		return fmt.Errorf("checking script arg name: empty name: %w", core.ErrInvalidArgument)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isASCIILetter(c) && (c < '0' || c > '9') && c != '_' && c != '-' {
			return fmt.Errorf("checking script arg %q: name must match [A-Za-z0-9_-]+: %w", name, core.ErrInvalidArgument)
		}
	}
	return nil
}

// ArgEnvName is the environment variable that carries argument name:
// SKILL_ARG_ + the name upper-cased, hyphens turned into underscores.
func ArgEnvName(name string) string {
	return ArgEnvPrefix + strings.ReplaceAll(strings.ToUpper(name), "-", "_")
}

// ArgEnv turns named script arguments into SKILL_ARG_{UPPERCASE_NAME}=value
// entries, sorted. Values are passed verbatim, never interpreted. It fails,
// wrapping core.ErrInvalidArgument, when a name is invalid, when a value holds a
// NUL byte (the OS cannot carry it), or when two names would become the same
// variable (differing only in case, or in '-' versus '_').
func ArgEnv(args map[string]string) ([]string, error) {
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := make(map[string]string, len(args))
	env := make([]string, 0, len(args))
	for _, name := range names {
		if err := CheckArgName(name); err != nil {
			return nil, err
		}
		value := args[name]
		if strings.ContainsRune(value, 0) {
			return nil, fmt.Errorf("checking script arg %q: value holds a NUL byte: %w", name, core.ErrInvalidArgument)
		}
		key := ArgEnvName(name)
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("checking script args %q and %q: both become %s: %w", prev, name, key, core.ErrInvalidArgument)
		}
		seen[key] = name
		env = append(env, key+"="+value)
	}
	sortByName(env)
	return env, nil
}

// MinimalEnv builds the whole environment of a script process: PATH, HOME, LANG
// and TMPDIR taken from the server's environment (PATH keeps only its
// absolute entries, so no program a script or its interpreter looks up is
// found in the working directory — "", "." and "bin" are dropped; PATH defaults to
// /usr/local/bin:/usr/bin:/bin, LANG to C.UTF-8 and TMPDIR to os.TempDir() when
// unset; HOME is left out when unset), SKILL_DIR=skillDir, and the arguments as
// ArgEnv makes them. Nothing else is inherited: tokens, endpoints and the
// server's own configuration never reach a script. Entries are sorted by name.
func MinimalEnv(skillDir string, args map[string]string) ([]string, error) {
	argEnv, err := ArgEnv(args)
	if err != nil {
		return nil, err
	}
	if strings.ContainsRune(skillDir, 0) {
		return nil, fmt.Errorf("building script env: skill dir %q holds a NUL byte: %w", skillDir, core.ErrInvalidArgument)
	}
	env := make([]string, 0, len(hostDefaults)+1+len(argEnv))
	for _, v := range hostDefaults {
		value := os.Getenv(v.name)
		if v.name == "PATH" {
			value = absoluteEntries(value)
		}
		if value == "" {
			value = v.fallback
			if v.name == "TMPDIR" {
				value = os.TempDir()
			}
		}
		if value != "" {
			env = append(env, v.name+"="+value)
		}
	}
	env = append(env, SkillDirEnv+"="+skillDir)
	env = append(env, argEnv...)
	sortByName(env)
	return env, nil
}

// absoluteEntries is the list of directories path with the relative ones
// (an empty entry means the working directory) left out.
func absoluteEntries(path string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// sortByName sorts NAME=value entries by NAME.
func sortByName(env []string) {
	sort.SliceStable(env, func(i, j int) bool { return envName(env[i]) < envName(env[j]) })
}

func envName(entry string) string {
	name, _, _ := strings.Cut(entry, "=")
	return name
}

func isASCIILetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
