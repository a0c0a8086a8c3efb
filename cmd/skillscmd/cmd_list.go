package skillscmd

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// listCmd prints the skill tree: indented for a terminal, or list_skills' JSON.
func listCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	fs := newFlagSet("list", "list [PATH]", "Show the skill tree, or the sub-tree at PATH (\"ui\", \"api/_index\").", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	asJSON := fs.Bool("json", false, "print JSON (the list_skills result)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) > 1 {
		return usagef("list: takes at most one PATH, got %d", len(pos))
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	filter := ""
	if len(pos) == 1 {
		filter = strings.Trim(pos[0], "/")
	}
	nodes := c.snap.Tree(filter)
	if *asJSON {
		return writeJSON(stdout, nodes)
	}
	if len(nodes) == 0 {
		if filter != "" {
			return fmt.Errorf("no skill at %q", filter)
		}
		fmt.Fprintln(stdout, "no skills")
		return nil
	}
	out := bufio.NewWriter(stdout) // a line per skill: one write per line was 10,000 system calls at 10,000 skills
	for _, n := range nodes {
		printNode(out, n, 0)
	}
	return out.Flush()
}

func printNode(w io.Writer, n *index.TreeNode, depth int) {
	line := fmt.Sprintf("%s%s  [%s]", strings.Repeat("  ", depth), n.Name, n.Path)
	if n.Description != "" {
		line += "  " + n.Description
	}
	if extra := countsText(n.AssetCount, n.ScriptCount); extra != "" {
		line += "  (" + extra + ")"
	}
	fmt.Fprintln(w, line)
	for _, child := range n.Children {
		printNode(w, child, depth+1)
	}
}

func countsText(assets, scripts int) string {
	var parts []string
	if assets > 0 {
		parts = append(parts, plural(assets, "asset"))
	}
	if scripts > 0 {
		parts = append(parts, plural(scripts, "script"))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// newFlagSet builds a flag set whose -help text shows usage, a summary and
// the flags (no Flags: heading for a command without any). A parse error is
// not printed by the flag package: the usage is, and the error once, by the
// caller (exitCode), with the flag meant when one is close (parseInterspersed).
func newFlagSet(name, usage, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: skills-mcp %s\n\n%s\n", usage, summary)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(stderr, "\nFlags:\n")
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}
