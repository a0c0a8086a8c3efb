package skillscmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/eval"
)

// evalInitCmd writes a starter queries file: each routable skill's name,
// which must route to it, for the author to add task descriptions as users
// phrase them.
func evalInitCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	fset := newFlagSet("eval init", "eval init [--force] FILE",
		"Write a starter queries file for skills-mcp eval: one line per skill, its name expecting its path.", stderr)
	var src sourceFlags
	src.register(fset, getenv)
	force := fset.Bool("force", false, "overwrite FILE")
	pos, err := parseInterspersed(fset, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 {
		return usagef("eval init: give the file to write, e.g. skills-mcp eval init routing.jsonl")
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	var b strings.Builder
	n := 0
	for _, sk := range c.snap.Skills() {
		last := eval.LastPathSegment(sk.Path)
		if last == "_root" || last == "_index" {
			continue
		}
		line, err := json.Marshal(eval.Query{Query: sk.Name, Expect: []string{sk.Path}})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
		n++
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if *force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(pos[0], flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usagef("eval init: %s exists (--force overwrites it)", pos[0])
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d queries, one per skill by its name.\n"+
		"Add the tasks your users ask, one {\"query\": \"…\", \"expect\": [\"skill/path\"]} per line\n"+
		"(\"expect\": [] for a request no skill should answer), then run: skills-mcp eval %s\n", pos[0], n, pos[0])
	return nil
}
