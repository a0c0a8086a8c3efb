package config

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a configuration: where it is, which key,
// and what is wrong.
type Problem struct {
	// File is the configuration file, or "" when the value did not come from
	// a file (a default or an environment override).
	File string
	// Line is the 1-based line of the key (or list item) at fault in File, 0
	// when unknown.
	Line int
	// Key is the dotted key (`scripts.timeout_seconds`,
	// `scripts.allowed_extensions[1]`), "(top level)" for the document.
	Key string
	// Message says what is wrong.
	Message string
}

// String is `file:line: key: message`, leaving out what is unknown.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error is an invalid configuration: every problem found, in line order.
type Error struct {
	// Problems are all the problems, sorted by line then key.
	Problems []Problem
	// Warnings are the non-fatal remarks found in the same file (unknown
	// keys), sorted: a check reports them with the problems, all at once.
	// Error() leaves them out.
	Warnings []Problem
}

// Error lists the problems, one a line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sortProblems orders problems by line, then key, then message.
func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch {
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Key != b.Key:
			return a.Key < b.Key
		default:
			return a.Message < b.Message
		}
	})
}
