package index

import "github.com/hashicorp/go-hclog"

// logLine is one line a recordingLogger took.
type logLine struct {
	level hclog.Level
	msg   string
	args  []any
}

// recordingLogger keeps the lines logged while one file is scanned, so the
// scan can log them in file order whichever worker parsed the file. Only the
// logging methods record; the rest is a null logger's.
type recordingLogger struct {
	hclog.Logger
	lines []logLine
}

func (r *recordingLogger) record(level hclog.Level, msg string, args []any) {
	r.lines = append(r.lines, logLine{level: level, msg: msg, args: args})
}

// Log records a line at level.
func (r *recordingLogger) Log(level hclog.Level, msg string, args ...any) { r.record(level, msg, args) }

// Trace records a trace line.
func (r *recordingLogger) Trace(msg string, args ...any) { r.record(hclog.Trace, msg, args) }

// Debug records a debug line.
func (r *recordingLogger) Debug(msg string, args ...any) { r.record(hclog.Debug, msg, args) }

// Info records an info line.
func (r *recordingLogger) Info(msg string, args ...any) { r.record(hclog.Info, msg, args) }

// Warn records a warning.
func (r *recordingLogger) Warn(msg string, args ...any) { r.record(hclog.Warn, msg, args) }

// Error records an error line.
func (r *recordingLogger) Error(msg string, args ...any) { r.record(hclog.Error, msg, args) }
