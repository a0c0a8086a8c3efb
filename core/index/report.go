package index

import (
	"fmt"
	"strings"
)

// Kinds of what a rebuild reports, each summarized on its own at start-up:
// the first few of a kind are logged in full, the rest counted on one line
// (a collection of a thousand skills must not print a thousand warnings; the
// validate command lists every one).
const (
	kindSkipped   = "skipped"   // a skill file left out: its skill is not served
	kindNotSkill  = "not-skill" // Markdown outside any skill folder that is not a skill (READMEs, commands/, agents/)
	kindRuleBreak = "rules"     // an Agent Skill served although it breaks a rule of the format
	kindCollision = "collision" // two skills with one name (exact, by case, or once normalized)
	kindShadowed  = "shadowed"  // a path an earlier root already holds
	kindLink      = "link"      // a symlink not followed: a mirror of what is served, dangling, a loop, or /
	kindOther     = "other"     // everything else: unknown keys, declared files missing, limits
)

// fullLines is how many problems of one kind are logged in full at start-up
// before the rest are only counted; Markdown that is not a skill is only ever
// counted.
var fullLines = map[string]int{kindSkipped: 5, kindRuleBreak: 3, kindCollision: 3, kindShadowed: 3, kindLink: 3, kindOther: 3}

// summaries say, for each kind, what its count line counts.
var summaries = map[string]string{
	kindSkipped:   "skill files skipped",
	kindNotSkill:  "Markdown files outside skill folders are not skills (no skill frontmatter: READMEs, commands/, agents/…); not served",
	kindRuleBreak: "skills served although they break Agent Skills rules",
	kindCollision: "name collisions (every skill is served and reachable by path)",
	kindShadowed:  "skills shadowed by the same path in an earlier skills directory",
	kindLink:      "symlinks not followed (mirrors of served skills, dangling, loops)",
	kindOther:     "other problems",
}

// kindOrder is the order of the summary lines.
var kindOrder = []string{kindSkipped, kindRuleBreak, kindCollision, kindShadowed, kindLink, kindOther, kindNotSkill}

// note records a problem of the given kind of file (relative to the current
// root); logLine, when not empty, is what the start-up log says of it.
func (b *builder) note(kind, file string, line int, severity, message string) {
	b.noteLine(kind, file, line, severity, message, file+": "+message)
}

// noteLine is note with the start-up log line given ("" for none).
func (b *builder) noteLine(kind, file string, line int, severity, message, logLine string) {
	b.problems = append(b.problems, rankedProblem{
		Problem:  Problem{File: file, Root: b.root, Line: line, Severity: severity, Message: message},
		rootRank: b.rank,
		kind:     kind,
		logLine:  logLine,
	})
}

// logReport logs the problems of a rebuild at start-up: per kind, the first
// fullLines[kind] in full, then one line counting them all and naming the
// command that lists them. Every line is a warning but the count of
// Markdown that is not a skill, which is informational.
func (b *builder) logReport(problems []rankedProblem, dirs string) {
	counts, logged := map[string]int{}, map[string]int{}
	for _, p := range problems {
		if p.kind == "" {
			continue
		}
		if p.logLine != "" || p.kind == kindNotSkill { // a rule break's other problems have no line of their own
			counts[p.kind]++
		}
		if p.logLine != "" && logged[p.kind] < fullLines[p.kind] {
			logged[p.kind]++
			b.logger.Warn(p.logLine)
		}
	}
	for _, kind := range kindOrder {
		n := counts[kind]
		if n == 0 || n <= logged[kind] {
			continue
		}
		msg := fmt.Sprintf("%d %s", n, summaries[kind])
		if logged[kind] > 0 {
			msg += fmt.Sprintf(" (%d shown above)", logged[kind])
		}
		msg += "; `skills-mcp validate " + dirs + "` lists them"
		if kind == kindNotSkill {
			b.logger.Info(msg)
			continue
		}
		b.logger.Warn(msg)
	}
}

// rootList is the directories of roots as one argument list for a command line.
func rootList(roots []Root) string {
	dirs := make([]string, len(roots))
	for i, r := range roots {
		dirs[i] = r.Dir
	}
	return strings.Join(dirs, " ")
}
