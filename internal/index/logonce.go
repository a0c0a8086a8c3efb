package index

import (
	"fmt"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// maxLoggedOnce bounds the lines an onceLogger remembers; past it, it
// forgets them all and starts again (a line may then be printed twice).
const maxLoggedOnce = 10000

// onceLogger is the logger of an Index's rebuilds: a warning or an
// informational line is printed the first time its text (message and
// fields) is logged, not again when a later rebuild (refresh_skills, the
// watcher, a git update) finds the same problem in the same content. A file
// changed so that its problem reads differently is printed anew. Debug and
// trace lines pass every time.
type onceLogger struct {
	hclog.Logger
	mu   sync.Mutex
	seen map[string]struct{}
}

func newOnceLogger(l hclog.Logger) *onceLogger {
	return &onceLogger{Logger: l, seen: map[string]struct{}{}}
}

// first reports whether the line is logged for the first time, and records it.
func (l *onceLogger) first(level hclog.Level, msg string, args []any) bool {
	key := fmt.Sprint(int(level), msg, args)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.seen[key]; ok {
		return false
	}
	if len(l.seen) >= maxLoggedOnce {
		clear(l.seen)
	}
	l.seen[key] = struct{}{}
	return true
}

// Info implements hclog.Logger: once per text.
func (l *onceLogger) Info(msg string, args ...any) {
	if l.first(hclog.Info, msg, args) {
		l.Logger.Info(msg, args...)
	}
}

// Warn implements hclog.Logger: once per text.
func (l *onceLogger) Warn(msg string, args ...any) {
	if l.first(hclog.Warn, msg, args) {
		l.Logger.Warn(msg, args...)
	}
}

// Error implements hclog.Logger: once per text.
func (l *onceLogger) Error(msg string, args ...any) {
	if l.first(hclog.Error, msg, args) {
		l.Logger.Error(msg, args...)
	}
}

// Log implements hclog.Logger: lines at Info and above once per text.
func (l *onceLogger) Log(level hclog.Level, msg string, args ...any) {
	if level >= hclog.Info && !l.first(level, msg, args) {
		return
	}
	l.Logger.Log(level, msg, args...)
}
