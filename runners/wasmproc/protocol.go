package wasmproc

import (
	"context"
	"errors"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// HelperName is the file name of the helper executable.
const HelperName = "skills-mcp-wasm"

// ModuleFD is the helper's file descriptor holding the module when
// Request.ModuleOpen is set (the first of exec.Cmd.ExtraFiles).
const ModuleFD = 3

// Engine is the configuration of the helper's wazero engine (config wasm.*).
type Engine struct {
	// MemoryLimitPages caps a module's linear memory in 64 KiB pages.
	MemoryLimitPages uint32 `json:"memory_limit_pages,omitempty"`
	// CacheDir keeps compiled code on disk across runs; empty means none.
	CacheDir string `json:"cache_dir,omitempty"`
	// Mounts are extra read-only directories: guest path → host directory.
	Mounts map[string]string `json:"mounts,omitempty"`
	// WritableRoots are the directories under which cwd may be mounted read-write.
	WritableRoots []string `json:"writable_roots,omitempty"`
}

// Request is one run, the helper's whole stdin.
type Request struct {
	Engine         Engine            `json:"engine"`
	ScriptPath     string            `json:"script_path"`
	File           string            `json:"file"`
	SkillDir       string            `json:"skill_dir"`
	Dir            string            `json:"dir,omitempty"`
	Args           map[string]string `json:"args,omitempty"`
	Timeout        time.Duration     `json:"timeout,omitempty"`
	MaxOutputBytes int64             `json:"max_output_bytes,omitempty"`
	// Deadline is the caller's context deadline, if any: a kill there is a timeout too.
	Deadline time.Time `json:"deadline,omitzero"`
	// ModuleOpen says the module is open on ModuleFD (the request had an
	// OpenScript); otherwise the helper reads ScriptPath.
	ModuleOpen bool `json:"module_open,omitempty"`
	// LogLevel is the hclog level of the helper's stderr.
	LogLevel string `json:"log_level,omitempty"`
}

// Response is the helper's whole stdout.
type Response struct {
	Result core.RunResult `json:"result"`
	// Error is the run's error message, empty when it ran; Kinds name the
	// sentinel errors it wraps (see kinds), so errors.Is holds across the
	// process boundary.
	Error string   `json:"error,omitempty"`
	Kinds []string `json:"kinds,omitempty"`
}

// kinds are the sentinel errors a run's error may wrap, by name.
var kinds = map[string]error{
	"invalid_argument":  core.ErrInvalidArgument,
	"path_traversal":    core.ErrPathTraversal,
	"asset_missing":     core.ErrAssetMissing,
	"not_found":         core.ErrNotFound,
	"too_large":         core.ErrTooLarge,
	"canceled":          context.Canceled,
	"deadline_exceeded": context.DeadlineExceeded,
}

// ErrorResponse is the Response of a run that failed with err: its message
// and the names of the sentinel errors it wraps.
func ErrorResponse(res core.RunResult, err error) Response {
	r := Response{Result: res}
	if err == nil {
		return r
	}
	r.Error = err.Error()
	for name, kind := range kinds {
		if errors.Is(err, kind) {
			r.Kinds = append(r.Kinds, name)
		}
	}
	return r
}

// Err is the error of r, nil when the run started; it wraps the sentinel
// errors r names.
func (r Response) Err() error {
	if r.Error == "" {
		return nil
	}
	e := &remoteError{msg: r.Error}
	for _, name := range r.Kinds {
		if k, ok := kinds[name]; ok {
			e.kinds = append(e.kinds, k)
		}
	}
	return e
}

// remoteError is an error of the helper: its message, wrapping the sentinels it named.
type remoteError struct {
	msg   string
	kinds []error
}

func (e *remoteError) Error() string   { return e.msg }
func (e *remoteError) Unwrap() []error { return e.kinds }
