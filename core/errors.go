package core

import (
	"errors"
	"sort"
	"strings"
)

// Sentinel errors. Packages wrap them with %w and a lowercase "doing x:" prefix;
// callers choose behaviour with errors.Is.
var (
	// ErrSkillNotFound: no skill has the requested path or name.
	ErrSkillNotFound = errors.New("skill not found")
	// ErrPathTraversal: a file argument is absolute, climbs out with `..`, holds a
	// backslash, a NUL byte or a drive letter, or resolves (through symlinks) outside
	// the directory it must stay in.
	ErrPathTraversal = errors.New("path traversal")
	// ErrAssetNotFound: the file is not declared by the skill nor by its chain.
	ErrAssetNotFound = errors.New("asset not found")
	// ErrAssetMissing: the file is declared but absent on disk.
	ErrAssetMissing = errors.New("declared file missing on disk")
	// ErrTooLarge: a file exceeds the configured size limit.
	ErrTooLarge = errors.New("file too large")
	// ErrScriptsDisabled: scripts.enabled is false.
	ErrScriptsDisabled = errors.New("script execution is disabled")
	// ErrScriptNotDeclared: the script is not in the skill's frontmatter.
	ErrScriptNotDeclared = errors.New("script not declared")
	// ErrNotServerScript: the script's execution mode is not "server".
	ErrNotServerScript = errors.New("script is not server-executable")
	// ErrExtensionNotAllowed: the script's extension is not in scripts.allowed_extensions.
	ErrExtensionNotAllowed = errors.New("extension not allowed")
	// ErrNoRunner: no runner is registered for the extension.
	ErrNoRunner = errors.New("no runner configured")
	// ErrInvalidArgument: a tool or script argument is malformed.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrNotFound: a registry has no entry of that name.
	ErrNotFound = errors.New("not found")
	// ErrRunLimit: the server is at its limit of scripts running at once, and
	// no run ended within the waiting run's timeout.
	ErrRunLimit = errors.New("at the limit of scripts running at once")
	// ErrNeedNotGranted: a script declares a need (needs: [network]) that
	// the operator does not grant scripts; it was not started.
	ErrNeedNotGranted = errors.New("script need not granted")
	// ErrRefreshInProgress: a refresh is already running (spec 000 §9.5).
	ErrRefreshInProgress = errors.New("refresh already in progress")
)

// MissingArgsError lists every required script argument that was not given.
type MissingArgsError struct {
	// Names are the missing argument names, sorted.
	Names []string
}

// Error implements error.
func (e *MissingArgsError) Error() string {
	names := append([]string(nil), e.Names...)
	sort.Strings(names)
	return "missing required args: " + strings.Join(names, ", ")
}

// Is lets errors.Is(err, ErrInvalidArgument) hold for missing arguments.
func (e *MissingArgsError) Is(target error) bool { return target == ErrInvalidArgument }
