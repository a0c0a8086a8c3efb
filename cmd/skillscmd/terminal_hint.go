package skillscmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// terminalHint is what serve says on stderr when a person started it at a
// terminal (`make run`, or `skills-mcp` typed by hand): it waits for an MCP
// client, not for typing, and here is how to connect one: the exact `claude
// mcp add` line, with the absolute path of this binary and of the skills it
// serves, which works whether or not the binary is on PATH.
func terminalHint(w io.Writer, roots []index.Root, repo string) {
	exe, err := os.Executable()
	if err != nil {
		exe = "skills-mcp"
	} else if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	setting := "" // the variable that names what is served: SKILLS_DIR=…, SKILLS_REPO=…, none for the standard locations
	switch {
	case repo != "":
		setting = "SKILLS_REPO=" + shellQuote(repo)
	case len(roots) > 0 && roots[0].Source == index.SourceSkillsDir:
		dirs := make([]string, len(roots))
		for i, r := range roots {
			dirs[i] = r.Dir
			if r.Prefix != "" {
				dirs[i] = r.Prefix + "=" + r.Dir
			}
		}
		setting = "SKILLS_DIR=" + shellQuote(strings.Join(dirs, string(filepath.ListSeparator)))
	}
	env, prefix := "", ""
	if setting != "" {
		env, prefix = "--env "+setting+" ", setting+" "
	}
	fmt.Fprintf(w, "\nskills-mcp is an MCP server: it is waiting for an MCP client to speak JSON-RPC on stdin, not for typing.\n"+
		"Connect Claude Code to it (then /mcp in Claude Code lists its tools):\n\n"+
		"  claude mcp add skills %s-- %s\n\n", env, shellQuote(exe))
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		fmt.Fprint(w, "(that binary is go run's, which goes away: `make build` writes bin/skills-mcp to name instead)\n")
	}
	fmt.Fprintf(w, "Or try the skills from a terminal: %s%s list (search, get, validate; --help). Ctrl-C stops the server.\n\n", prefix, shellQuote(exe))
}

// shellQuote quotes s for a POSIX shell when it holds anything but the
// characters of ordinary paths.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
