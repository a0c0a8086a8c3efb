package scripts

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
)

// undeclaredArgs are the names in given that the script does not declare,
// sorted: the script would never read them, so a typo (`changed-lines` for
// `changed_lines`) would pass unnoticed.
func undeclaredArgs(declared []core.Arg, given map[string]string) []string {
	known := make(map[string]bool, len(declared))
	for _, d := range declared {
		known[d.Name] = true
	}
	var out []string
	for name := range given {
		if !known[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// declaredArgs says which arguments the script takes, for an error message.
func declaredArgs(declared []core.Arg) string {
	if len(declared) == 0 {
		return "this script declares none: leave args out"
	}
	names := make([]string, len(declared))
	for i, d := range declared {
		names[i] = d.Name
		if d.Required {
			names[i] += " (required)"
		}
	}
	return "it declares " + strings.Join(names, ", ")
}

// runnerHint is how a client could run file itself: with the runner
// scripts.runners configures for its extension, else the interpreter for it.
func runnerHint(cfg config.ScriptsConfig, file string) string {
	ext := strings.ToLower(path.Ext(file))
	if r := strings.TrimSpace(cfg.Runners[ext]); r != "" {
		return "for example with " + r
	}
	if ext == "" {
		return "with the interpreter its first line names"
	}
	return "with the interpreter for " + ext
}

// quoted is names quoted and comma-separated.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
