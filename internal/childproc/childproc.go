// Package childproc is what the helper executables of skills-mcp share
// (skills-mcp-wasm, skills-mcp-git; issue 19): features whose libraries the
// server does not link run in a child started per operation, given one JSON
// request on stdin, answering one JSON response on stdout and logging JSON
// lines on stderr, which the server relays to its own log. A child is found
// next to the running executable, else on PATH.
package childproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// StopGrace is how long a child asked to stop (SIGINT: the caller's context
// ended) has to answer before it is killed.
const StopGrace = 5 * time.Second

// ErrNotInstalled is wrapped by Find's error.
var ErrNotInstalled = errors.New("helper executable not installed")

// Find returns the path of the helper executable name: next to the running
// executable (its symlinks resolved), else on PATH.
func Find(name string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: %s is neither next to this executable nor on PATH (make build and make install put it there)", ErrNotInstalled, name)
}

// Options of one Call.
type Options struct {
	// Env is the child's environment; nil means this process's.
	Env []string
	// Extra are the child's file descriptors from 3 on.
	Extra []*os.File
	// Log receives the child's log lines; nil drops them.
	Log hclog.Logger
	// Processes is the server's table of runs and helpers that the child
	// is registered in while it runs (Start); nil registers nothing.
	Processes *launch.Processes
	// Deadline bounds the call in the server, whatever the child does: when
	// it passes, the child is asked to stop as when ctx ends, and Grace later
	// it is killed. Zero means ctx alone bounds the call.
	Deadline time.Duration
	// Grace is how long a child asked to stop (SIGINT) has to answer before
	// its process group is killed; zero means StopGrace.
	Grace time.Duration
	// MaxAnswer caps the child's stdout; zero means MaxAnswerBytes. A child
	// that writes more is killed and the call fails (ErrAnswerTooLarge).
	MaxAnswer int64
}

// Call is one operation of the child at path: request, JSON, on its stdin;
// its stdout, at most o.MaxAnswer bytes, decoded into response; its stderr
// relayed to o.Log. The child is started by Start (its own process group,
// killed with the server on Linux). When ctx ends or o.Deadline passes the
// child gets SIGINT and o.Grace to answer, then its process group is
// killed; the group is killed too once the child has ended, so nothing it
// started stays behind. The error is that of a child that could not start,
// ended without an answer (wrapping context.DeadlineExceeded at o.Deadline,
// ctx's error when ctx ended) or answered too much.
func Call(ctx context.Context, path string, request, response any, o Options) error {
	in, err := json.Marshal(request)
	if err != nil {
		return err
	}
	grace, limit := o.Grace, o.MaxAnswer
	if grace <= 0 {
		grace = StopGrace
	}
	if limit <= 0 {
		limit = MaxAnswerBytes
	}
	runCtx := ctx
	if o.Deadline > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, o.Deadline)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, path)
	cmd.Env = o.Env
	cmd.Stdin = bytes.NewReader(in)
	out := &answerBuffer{limit: limit, over: func() { KillGroup(cmd.Process) }}
	logs := LogWriter(o.Log)
	cmd.Stdout, cmd.Stderr = out, logs
	cmd.ExtraFiles = o.Extra
	var killMu sync.Mutex
	var kill *time.Timer // the group's kill, Grace after the SIGINT
	// At ctx's end or the deadline the child answers with what it has.
	cmd.Cancel = func() error {
		killMu.Lock()
		kill = time.AfterFunc(grace, func() { KillGroup(cmd.Process) })
		killMu.Unlock()
		return cmd.Process.Signal(os.Interrupt)
	}
	cmd.WaitDelay = grace // then the pipes a grandchild holds are closed
	if err := Start(cmd, o.Processes); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	waitErr := cmd.Wait()
	killMu.Lock()
	if kill != nil {
		kill.Stop()
	}
	killMu.Unlock()
	KillGroup(cmd.Process) // what the child started and left behind
	logs.Flush()
	name := filepath.Base(path)
	if out.full {
		return tooLarge(name, limit)
	}
	if err := json.Unmarshal(out.buf.Bytes(), response); err != nil {
		how := "exit status 0" // a clean exit: waitErr is nil
		if waitErr != nil {
			how = waitErr.Error()
		}
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("%s ended without an answer (%s): %w", name, how, ctx.Err())
		case runCtx.Err() != nil:
			return fmt.Errorf("%s did not answer within %s and was ended: %w", name, o.Deadline, context.DeadlineExceeded)
		}
		return fmt.Errorf("%s ended without an answer (%s)", name, how)
	}
	return nil
}

// Level is the name of l's level, for a child's logger.
func Level(l hclog.Logger) string {
	switch {
	case l.IsTrace():
		return "trace"
	case l.IsDebug():
		return "debug"
	case l.IsInfo():
		return "info"
	case l.IsWarn():
		return "warn"
	}
	return "error"
}

// Logger is a child's logger: JSON lines on w at level, for the server to relay.
func Logger(name, level string, w io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: name, Level: hclog.LevelFromString(level), Output: w, JSONFormat: true})
}

// Fault is an error carried across the process boundary: its message and
// the names of the sentinel errors it wraps, so that errors.Is holds in the
// server. Sentinels are named in a table both sides share.
type Fault struct {
	Message string   `json:"message"`
	Kinds   []string `json:"kinds,omitempty"`
}

// FaultOf is err as a Fault naming the sentinels of table it wraps; nil for nil.
func FaultOf(err error, table map[string]error) *Fault {
	if err == nil {
		return nil
	}
	f := &Fault{Message: err.Error()}
	for name, kind := range table {
		if errors.Is(err, kind) {
			f.Kinds = append(f.Kinds, name)
		}
	}
	return f
}

// Err is f as an error wrapping the sentinels of table it names; nil for nil.
func (f *Fault) Err(table map[string]error) error {
	if f == nil {
		return nil
	}
	e := &remoteError{msg: f.Message}
	for _, name := range f.Kinds {
		if k, ok := table[name]; ok {
			e.kinds = append(e.kinds, k)
		}
	}
	return e
}

type remoteError struct {
	msg   string
	kinds []error
}

func (e *remoteError) Error() string   { return e.msg }
func (e *remoteError) Unwrap() []error { return e.kinds }
