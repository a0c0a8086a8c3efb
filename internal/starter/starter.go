// Package starter holds the starter content repositories `skills-mcp init`
// writes, as the files themselves (embedded): a skill tree of spec 000
// (`tree`: _root.md, a category, keywords, inheritance, an asset and a
// script) and Agent Skills folders (`agent-skills`: SKILL.md, scripts/,
// references/). `validate` must pass on each; a test of the command checks it.
package starter

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed all:tree all:agent-skills
var files embed.FS

// Formats are the starters' names, sorted.
var Formats = []string{"agent-skills", "tree"}

// Files returns the files of the starter named format by their slash path
// (skills/…), and false for an unknown format.
func Files(format string) (map[string]string, bool) {
	i := sort.SearchStrings(Formats, format)
	if i == len(Formats) || Formats[i] != format {
		return nil, false
	}
	out := map[string]string{}
	err := fs.WalkDir(files, format, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(p, format+"/")] = string(data)
		return nil
	})
	if err != nil {
		panic("starter: reading the embedded files: " + err.Error()) // they are compiled in
	}
	return out, true
}
