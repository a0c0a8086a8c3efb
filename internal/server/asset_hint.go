package server

import (
	"fmt"
	"path"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// maxHintFiles bounds the files an asset-not-found message lists.
const maxHintFiles = 20

// assetNotFoundHint is what get_asset adds to "asset not found" so a client
// can correct its call: the files of sk whose path, or else whose base name,
// equals file but for case ("did you mean"), then the files sk offers (own
// and inherited assets and scripts, at most maxHintFiles, with a count of the
// rest). Empty when sk offers no file.
func assetNotFoundHint(snap *index.Snapshot, sk *core.Skill, file string) string {
	own, inherited, ownScripts, inheritedScripts := snap.AssetsFor(sk)
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, a := range own {
		add(a.File)
	}
	for _, sc := range ownScripts {
		add(sc.File)
	}
	for _, a := range inherited {
		add(a.File)
	}
	for _, sc := range inheritedScripts {
		add(sc.File)
	}
	if len(files) == 0 {
		return "; this skill offers no files"
	}
	var near []string
	for _, f := range files {
		if strings.EqualFold(f, file) {
			near = append(near, f)
		}
	}
	if len(near) == 0 {
		for _, f := range files {
			if strings.EqualFold(path.Base(f), path.Base(file)) {
				near = append(near, f)
			}
		}
	}
	var b strings.Builder
	if len(near) > 0 {
		fmt.Fprintf(&b, "; did you mean %s?", quoteAll(near, maxHintFiles))
	}
	fmt.Fprintf(&b, "; the skill's files: %s", quoteAll(files, maxHintFiles))
	return b.String()
}

// quoteAll is files quoted and comma-separated, at most limit of them, then
// how many more there are.
func quoteAll(files []string, limit int) string {
	shown := files
	if len(shown) > limit {
		shown = shown[:limit]
	}
	q := make([]string, len(shown))
	for i, f := range shown {
		q[i] = fmt.Sprintf("%q", f)
	}
	out := strings.Join(q, ", ")
	if n := len(files) - len(shown); n > 0 {
		out += fmt.Sprintf(" (and %d more)", n)
	}
	return out
}
