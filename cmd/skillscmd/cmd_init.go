package skillscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/starter"
)

// Formats of the starter `init` writes.
const (
	formatTree        = "tree"
	formatAgentSkills = "agent-skills"
)

// initCmd writes a starter content repo into DIR without overwriting anything.
func initCmd(_ context.Context, _ *app, args []string, stdout, stderr io.Writer) error {
	fset := newFlagSet("init", "init [--format tree|agent-skills] [DIR]",
		"Write a starter content repository (skills/ and config.yaml) into DIR (default .): a skill tree of spec 000\n"+
			"(_root.md, categories, keywords, inheritance), or Agent Skills folders (SKILL.md, scripts/, references/).", stderr)
	format := fset.String("format", formatTree, "the starter's format: tree (spec 000's Markdown tree) or agent-skills (SKILL.md folders)")
	pos, err := parseInterspersed(fset, args)
	if err != nil {
		return flagError(err)
	}
	skillFiles, ok := starter.Files(*format)
	if !ok {
		return usagef("init: --format %q: want tree or agent-skills", *format)
	}
	if len(pos) > 1 {
		return usagef("init: takes at most one DIR")
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	ref, err := config.Reference()
	if err != nil {
		return err
	}
	files := map[string]string{"config.yaml": ref}
	for k, v := range skillFiles {
		files[k] = v
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return usagef("init: %s already exists; choose an empty directory", filepath.Join(dir, name))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(name) == ".sh" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(files[name]), mode); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintln(stdout, "wrote "+p)
	}
	fmt.Fprintf(stdout, "\nNext: skills-mcp validate %s && SKILLS_DIR=%s skills-mcp search code review\n",
		dir, filepath.Join(dir, "skills"))
	return nil
}
