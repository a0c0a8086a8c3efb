package validate

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// Tree is every finding on the skills of snap beyond the configuration: the
// index's problems (less its warnings on a line where validate's own checks
// found an error), validate's own checks of each skill file, script argument
// names no script can receive, server scripts no runner takes (hasRunner says
// which extensions have one), and skills no query can select alone. rel names
// a file as the findings show it.
func Tree(snap *index.Snapshot, rel func(string) string, hasRunner func(ext string) bool) []Finding {
	var out []Finding
	own := checkSkillFiles(snap.Skills(), rel)
	out = append(out, supersede(indexFindings(snap, rel), own)...)
	out = append(out, own...)
	for _, sk := range snap.Skills() {
		file := rel(sk.AbsPath)
		for _, sc := range sk.Scripts {
			for _, arg := range sc.Args {
				if launch.CheckArgName(arg.Name) != nil {
					out = append(out, Finding{File: file, Line: 1, Severity: "error",
						Message: fmt.Sprintf("script %s: argument name %q cannot reach the script (use letters, digits, _ and -)", sc.File, arg.Name)})
				}
			}
			ext := strings.ToLower(path.Ext(sc.File))
			if sc.Execution != core.ExecutionServer {
				continue
			}
			if !hasRunner(ext) {
				out = append(out, Finding{File: file, Line: 1, Severity: "warning",
					Message: fmt.Sprintf("script %s: no runner for %q in scripts.runners; run_script will refuse it", sc.File, ext)})
			}
		}
	}
	out = append(out, unreachable(snap, rel)...)
	return out
}

// indexFindings are the problems the index found while building snap.
func indexFindings(snap *index.Snapshot, rel func(string) string) []Finding {
	var out []Finding
	for _, p := range snap.Problems() {
		file := p.File
		if !filepath.IsAbs(file) {
			file = rel(filepath.Join(p.Root, filepath.FromSlash(file)))
		}
		out = append(out, Finding{File: file, Line: max(p.Line, 1), Severity: p.Severity, Message: p.Message})
	}
	return out
}

// supersede drops the index's warnings on a line where validate's own checks
// found an error: they are the same problem seen by the server, which serves
// on (a declared file missing on disk, an ignored keywords value), and by
// validate, which holds it to the format.
func supersede(fromIndex, own []Finding) []Finding {
	type at struct {
		file string
		line int
	}
	errs := map[at]bool{}
	for _, f := range own {
		if f.Severity == "error" || f.Severity == "note" {
			errs[at{f.File, f.Line}] = true
		}
	}
	out := fromIndex[:0:0]
	for _, f := range fromIndex {
		if f.Severity == "warning" && errs[at{f.File, f.Line}] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// unreachable reports skills that can never be the single answer: another skill
// has exactly the same keywords and a higher priority (or the same priority,
// which makes every matching query ambiguous between them).
func unreachable(snap *index.Snapshot, rel func(string) string) []Finding {
	byKeys := map[string][]*core.Skill{}
	for _, sk := range snap.Skills() {
		if len(sk.Keywords) == 0 {
			continue
		}
		keys := make([]string, 0, len(sk.Keywords))
		for _, k := range sk.Keywords {
			keys = append(keys, strings.ToLower(k))
		}
		sort.Strings(keys)
		sig := strings.Join(keys, "\x00")
		byKeys[sig] = append(byKeys[sig], sk)
	}
	var out []Finding
	for _, group := range byKeys {
		if len(group) < 2 {
			continue
		}
		sort.Slice(group, func(i, j int) bool {
			return group[i].Priority > group[j].Priority || group[i].Priority == group[j].Priority && group[i].Path < group[j].Path
		})
		for _, sk := range group[1:] {
			msg := fmt.Sprintf("no query can select this skill alone: %s has the same keywords and priority %v", group[0].Path, group[0].Priority)
			if sk.Priority == group[0].Priority {
				msg = fmt.Sprintf("every query that matches this skill is ambiguous with %s (same keywords, same priority)", group[0].Path)
			}
			out = append(out, Finding{File: rel(sk.AbsPath), Line: 1, Severity: "warning", Message: msg})
		}
	}
	return out
}
