package index

import (
	"fmt"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
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
	// kindTreeInvalid is a Markdown file with a frontmatter block that is not a
	// valid tree skill, until notSkills makes it kindSkipped or kindNotSkill.
	kindTreeInvalid = "tree-invalid"
)

// summaries say, for each kind, what its count counts: singular and plural.
var summaries = map[string][2]string{
	kindSkipped:   {"skill file skipped", "skill files skipped"},
	kindRuleBreak: {"skill served although it breaks Agent Skills rules", "skills served although they break Agent Skills rules"},
	kindCollision: {"name collision (each skill is reachable by its path)", "name collisions (each skill is reachable by its path)"},
	kindShadowed:  {"skill shadowed by the same path in an earlier skills directory", "skills shadowed by the same path in an earlier skills directory"},
	kindLink:      {"symlink not followed (a mirror of a served skill, dangling, or a loop)", "symlinks not followed (mirrors of served skills, dangling, loops)"},
	kindOther:     {"other problem", "other problems"},
	kindNotSkill:  {"Markdown file outside skill folders is not a skill (README, commands/, agents/…)", "Markdown files outside skill folders are not skills (READMEs, commands/, agents/…)"},
}

// kindOrder is the order in which the kinds are logged in full and counted.
var kindOrder = []string{kindSkipped, kindRuleBreak, kindCollision, kindShadowed, kindOther, kindLink, kindNotSkill}

// fullBudget is how many problems one start-up logs in full (taken in
// kindOrder); Markdown that is not a skill and links not followed (mirror
// trees are normal) are only ever counted.
const fullBudget = 2

// note records a problem of the given kind of file (relative to the current
// root), logged at start-up as `FILE: MESSAGE`.
func (b *builder) note(kind, file string, line int, severity, message string) {
	b.noteLine(kind, file, line, severity, message, file+": "+message)
}

// noteLine is note with the start-up log line given ("" for none: counted only).
func (b *builder) noteLine(kind, file string, line int, severity, message, logLine string) {
	b.problems = append(b.problems, rankedProblem{
		Problem:  Problem{File: textsafe.Escape(file), Root: b.root, Line: line, Severity: severity, Message: textsafe.Escape(message)},
		rootRank: b.rank,
		kind:     kind,
		logLine:  textsafe.Escape(logLine),
	})
}

// logReport logs the problems of a rebuild at start-up in a few lines,
// whatever their number: the first fullBudget in full (skipped skill files
// first), then, when any is left, one line counting every kind and naming the
// command that lists them all. That line is a warning when it counts a
// problem with a skill, informational when it counts only Markdown that is
// not a skill and links not followed.
func (b *builder) logReport(problems []rankedProblem, dirs string) {
	b.logShadowed(problems)
	counts := map[string]int{}
	for _, p := range problems {
		if p.logLine != "" || p.kind == kindNotSkill || p.kind == kindLink { // a rule break's other problems have no line of their own
			counts[p.kind]++
		}
	}
	logged, budget := map[string]int{}, fullBudget
	for _, kind := range kindOrder {
		if kind == kindLink || kind == kindNotSkill {
			continue
		}
		logged[kind] = min(counts[kind], budget)
		budget -= logged[kind]
	}
	shown := map[string]int{}
	for _, p := range problems {
		if p.logLine != "" && shown[p.kind] < logged[p.kind] {
			shown[p.kind]++
			b.logger.Warn(p.logLine)
		}
	}
	if !anyLeft(counts, logged) {
		return
	}
	var parts []string
	warn := false
	for _, kind := range kindOrder {
		n := counts[kind]
		if n == 0 {
			continue
		}
		noun := summaries[kind][1]
		if n == 1 {
			noun = summaries[kind][0]
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, noun))
		warn = warn || kind != kindLink && kind != kindNotSkill
	}
	msg := strings.Join(parts, "; ") + "; `skills-mcp validate " + dirs + "` lists each"
	if warn {
		b.logger.Warn(msg)
		return
	}
	b.logger.Info(msg)
}

// maxShadowedNamed bounds the paths one summary line of shadowed skills names.
const maxShadowedNamed = 40

// logShadowed logs, for each skills directory that had skills shadowed by
// the same path in an earlier one, one warning naming each of those paths
// (up to maxShadowedNamed) and how to serve the collections side by side:
// a count alone left nobody knowing which skills went missing.
func (b *builder) logShadowed(problems []rankedProblem) {
	byRoot := map[string][]string{}
	var roots []string
	for _, p := range problems {
		if p.kind != kindShadowed || p.subject == "" {
			continue
		}
		if byRoot[p.Root] == nil {
			roots = append(roots, p.Root)
		}
		byRoot[p.Root] = append(byRoot[p.Root], p.subject)
	}
	for _, root := range roots {
		paths := byRoot[root]
		named := paths[:min(len(paths), maxShadowedNamed)]
		more := ""
		if n := len(paths) - len(named); n > 0 {
			more = fmt.Sprintf(" and %d more (`skills-mcp validate` lists each)", n)
		}
		noun := "skills are"
		if len(paths) == 1 {
			noun = "skill is"
		}
		hint := ""
		if b.sources[root] == SourceSkillsDir {
			hint = "; to serve the collections side by side, name each directory: SKILLS_DIR=NAME=DIR:NAME=DIR (paths become NAME/…)"
		}
		b.logger.Warn(fmt.Sprintf("%s: %d %s shadowed by the same path in an earlier skills directory, not served: %s%s%s",
			root, len(paths), noun, strings.Join(named, ", "), more, hint))
	}
}

// anyLeft reports whether some counted problem was not logged in full.
func anyLeft(counts, logged map[string]int) bool {
	for kind, n := range counts {
		if n > logged[kind] {
			return true
		}
	}
	return false
}

// rootList is the directories of roots as one argument list for a command line.
func rootList(roots []Root) string {
	dirs := make([]string, len(roots))
	for i, r := range roots {
		dirs[i] = r.Dir
	}
	return strings.Join(dirs, " ")
}

// notSkills settles the Markdown files of one root whose frontmatter is not a
// valid tree skill's (kindTreeInvalid). In an Agent Skills collection (a root
// holding at least one SKILL.md and none of the skill tree's `_root.md` and
// `_index.md`) Markdown outside the skill folders is a plugin's commands/ or
// agents/, docs, templates: not a skill, counted on one line and listed by
// validate as a warning. In a skill tree it is a skill file with a mistake:
// skipped, an error.
func notSkills[J any](results []J, out func(J) *scanned) {
	agent, tree := false, false
	for _, r := range results {
		s := out(r).skill
		switch {
		case s == nil:
		case s.Format == core.FormatAgentSkill:
			agent = true
		case skillName(s.Path) != path.Base(s.Path) || s.Path == core.RootPath: // _root, …/_index
			tree = true
		}
	}
	collection := agent && !tree
	for _, r := range results {
		ps := out(r).problems
		for i := range ps {
			if ps[i].kind != kindTreeInvalid {
				continue
			}
			ps[i].kind = kindSkipped
			if collection {
				ps[i].kind, ps[i].logLine, ps[i].Severity = kindNotSkill, "", SeverityWarning
				ps[i].Message = "not a skill (Markdown outside the skill folders of an Agent Skills collection): " +
					strings.TrimPrefix(ps[i].Message, "skipped: ")
			}
		}
	}
}
