package index

import (
	"bytes"
	"sort"

	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// Severities of a Problem.
const (
	// SeverityError marks a file or entry that was left out of the index.
	SeverityError = "error"
	// SeverityWarning marks something served anyway, or only suspicious.
	SeverityWarning = "warning"
	// SeverityNote marks something left out on purpose, said so that nobody
	// wonders (a node_modules/ folder, which is never searched).
	SeverityNote = "note"
)

// Problem is one thing wrong with the skill files that a rebuild found: a
// skipped file, a broken Agent Skills rule, a shadowed skill, an unknown
// frontmatter key, a declared file missing on disk. The validate command
// prints them.
type Problem struct {
	// File is the path relative to its root with `/` separators
	// (`git/SKILL.md`, `ui/react/auth.md`; "." for the root itself).
	File string
	// Root is the absolute skills directory the file lies in.
	Root string
	// Line is the 1-based line of the offending frontmatter key when known, else 1.
	Line int
	// Severity is SeverityError, SeverityWarning or SeverityNote.
	Severity string
	// Message says what is wrong, in a lowercase sentence without the file name.
	Message string
}

// rankedProblem is a Problem with the position of its root among the roots.
type rankedProblem struct {
	Problem
	rootRank int
	kind     string // what the start-up log counts it as (logReport); "" for late problems
	logLine  string // what the start-up log says of it; "" when it is only counted or not logged
	subject  string // the skill path a shadowed problem is about, named in its summary line (logShadowed)
}

// sortProblems orders problems by root order, then file, then line, then
// message, and strips the ranks.
func sortProblems(ps []rankedProblem) []Problem {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch {
		case a.rootRank != b.rootRank:
			return a.rootRank < b.rootRank
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		default:
			return a.Message < b.Message
		}
	})
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = p.Problem
	}
	return out
}

// Problems returns what the rebuild of this snapshot found wrong, sorted by
// root order, file and line. The slice is the caller's.
func (sn *Snapshot) Problems() []Problem {
	sn.listFiles() // the limits of the skills extension need every directory walked
	return append([]Problem(nil), sn.problems...)
}

// keyLine returns the 1-based line of the file data on which the frontmatter key
// is declared at the top level (a line starting with `key:`), or 1 when it is
// not found. Line 1 is the opening `---` (after any BOM). Best effort: it scans
// the lines of the block and stops at the closing delimiter.
func keyLine(data []byte, key string) int {
	line, _ := keyLineFrom(data, key, "")
	return line
}

// keyLineFrom is keyLine that, when value is not empty, looks further for the
// first line after the key's that contains value (a list entry of the key) and
// returns that one instead when found. ok reports that the key was found.
func keyLineFrom(data []byte, key, value string) (line int, ok bool) {
	data = bytes.TrimPrefix(data, frontmatter.BOM)
	prefix := []byte(key + ":")
	keyAt := 0
	for n, pos := 1, 0; pos < len(data); n++ {
		text, next, _ := frontmatter.CutLine(data, pos)
		pos = next
		if n == 1 {
			continue // the opening delimiter
		}
		if frontmatter.IsDelimiter(text) {
			break
		}
		if keyAt == 0 {
			if bytes.HasPrefix(text, prefix) {
				keyAt = n
				if value == "" {
					return n, true
				}
				if bytes.Contains(text[len(prefix):], []byte(value)) {
					return n, true
				}
			}
			continue
		}
		if len(text) > 0 && text[0] != ' ' && text[0] != '\t' && text[0] != '-' && text[0] != '#' {
			break // the next top-level key: the entry was not found below ours
		}
		if bytes.Contains(text, []byte(value)) {
			return n, true
		}
	}
	if keyAt > 0 {
		return keyAt, true
	}
	return 1, false
}
