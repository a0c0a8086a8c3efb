package wasmproc

import (
	"context"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

// HelperName is the file name of the helper executable.
const HelperName = "skills-mcp-wasm"

// Protocol is the version of Request and Response, in every Hello: raise it
// whenever they change, so that a helper and a server that would misread
// each other refuse each other instead.
const Protocol = 1

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

// Request is one run: a JSON line on the helper's stdin. The first line
// the server sends a helper is a Request with Hello alone: the handshake,
// answered by a Response with Hello alone (and Fault when the helper
// refuses the server, which it then leaves).
type Request struct {
	// Hello is the server's, in the handshake only.
	Hello          *childproc.Hello  `json:"hello,omitempty"`
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
	// ModuleOpen says the module's ModuleSize bytes follow the request's
	// line (the server opened it as RunRequest.Script, confined to the skills
	// directory); otherwise the helper reads ScriptPath.
	ModuleOpen bool  `json:"module_open,omitempty"`
	ModuleSize int64 `json:"module_size,omitempty"`
	// LogLevel is the hclog level of the helper's stderr.
	LogLevel string `json:"log_level,omitempty"`
}

// Response is the answer to one Request: a JSON line on the helper's stdout.
type Response struct {
	// Hello is the helper's, in the answer to the handshake only.
	Hello  *childproc.Hello `json:"hello,omitempty"`
	Result core.RunResult   `json:"result"`
	// Fault is the run's error, nil when it ran.
	Fault *childproc.Fault `json:"fault,omitempty"`
}

// kinds are the sentinel errors a run's error may wrap, by name, so errors.Is
// holds across the process boundary.
var kinds = map[string]error{
	"invalid_argument":  core.ErrInvalidArgument,
	"path_traversal":    core.ErrPathTraversal,
	"asset_missing":     core.ErrAssetMissing,
	"not_found":         core.ErrNotFound,
	"too_large":         core.ErrTooLarge,
	"mismatch":          childproc.ErrMismatch,
	"canceled":          context.Canceled,
	"deadline_exceeded": context.DeadlineExceeded,
}

// ErrorResponse is the Response of a run: its result and its error.
func ErrorResponse(res core.RunResult, err error) Response {
	return Response{Result: res, Fault: childproc.FaultOf(err, kinds)}
}

// Err is the error of r, nil when the run started.
func (r Response) Err() error { return r.Fault.Err(kinds) }
