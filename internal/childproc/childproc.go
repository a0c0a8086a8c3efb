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
	"time"

	"github.com/hashicorp/go-hclog"
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

// Call is one operation of the child at path: request, JSON, on its stdin;
// its stdout decoded into response; its stderr relayed to log. env is the
// child's environment (nil: this process's), extra its file descriptors from
// 3 on. When ctx ends the child gets SIGINT and StopGrace to answer. The
// error is that of a child that could not start or ended without an answer.
func Call(ctx context.Context, path string, request, response any, env []string, extra []*os.File, log hclog.Logger) error {
	in, err := json.Marshal(request)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, path)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &RelayWriter{log: log}
	cmd.ExtraFiles = extra
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) } // it answers with what it has
	cmd.WaitDelay = StopGrace
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	waitErr := cmd.Wait()
	cmd.Stderr.(*RelayWriter).Flush()
	if err := json.Unmarshal(out.Bytes(), response); err != nil {
		err = fmt.Errorf("%s ended without an answer: %v", filepath.Base(path), waitErr)
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", err, ctx.Err())
		}
		return err
	}
	return nil
}

// LogWriter is a child's stderr for log: its JSON log lines relayed at their
// level with their fields, any other line (a panic) as an error. Call Flush
// when the child has ended.
func LogWriter(log hclog.Logger) *RelayWriter { return &RelayWriter{log: log} }

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

// RelayWriter logs a child's stderr on log (see LogWriter).
type RelayWriter struct {
	log hclog.Logger
	buf []byte
}

// Write relays the complete lines of p; it is safe for one writer at a time.
func (w *RelayWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.line(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

// Flush relays a last line that has no line end.
func (w *RelayWriter) Flush() {
	if len(w.buf) > 0 {
		w.line(w.buf)
		w.buf = nil
	}
}

func (w *RelayWriter) line(b []byte) {
	if w.log == nil || len(bytes.TrimSpace(b)) == 0 {
		return
	}
	var entry map[string]any
	if json.Unmarshal(b, &entry) != nil {
		w.log.Error("helper", "line", string(b))
		return
	}
	msg, _ := entry["@message"].(string)
	lvl, _ := entry["@level"].(string)
	args := make([]any, 0, 2*len(entry))
	for k, v := range entry {
		if len(k) > 0 && k[0] != '@' {
			args = append(args, k, v)
		}
	}
	w.log.Log(hclog.LevelFromString(lvl), msg, args...)
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
