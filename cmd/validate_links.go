package skillscmd

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/index"
	"github.com/skills-mcp/skills-mcp/internal/mdlinks"
)

// checkLinks reports the relative links and images of the skill's body whose
// target does not exist, or lies outside what a client can fetch with the
// skill: an Agent Skill's folder (progressive disclosure:
// `[forms](references/FORMS.md)`), a tree skill's skills directory.
// internal/mdlinks finds the links as CommonMark defines them (as goldmark
// did): none in code, reference links resolved. URLs, absolute paths and
// fragments are not checked.
func (f *skillFile) checkLinks(rel func(string) string) {
	_, _, body, _ := index.FrontmatterBlock(f.data)
	bodyStart := len(f.md) - len(body)
	fileDir := filepath.Dir(f.skill.AbsPath)
	bound, where := fileDir, "the skill folder"
	if f.skill.Format != core.FormatAgentSkill {
		bound = strings.TrimSuffix(f.skill.AbsPath, filepath.FromSlash(f.skill.FilePath))
		bound, where = filepath.Clean(bound), "the skills directory"
	}
	for _, l := range mdlinks.Find(f.md, bodyStart) {
		kind := "link"
		if l.Image {
			kind = "image"
		}
		target, ok := localTarget(l.Dest)
		if !ok {
			continue
		}
		line := 1 + bytes.Count(f.md[:l.Offset], []byte("\n"))
		abs := filepath.Join(fileDir, filepath.FromSlash(target))
		if r, err := filepath.Rel(bound, abs); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			f.add("error", line, "%s %q points outside %s: a client fetches only the files of this skill (to point at another skill, name it)", kind, l.Dest, where)
			continue
		}
		if _, err := os.Stat(abs); err != nil {
			f.add("error", line, "%s %q points to a file that does not exist: no %s", kind, l.Dest, rel(abs))
		}
	}
}

// localTarget returns the file path of a relative link destination, without
// its query and fragment and percent-decoded; ok is false for URLs (any
// scheme), absolute and network paths, bare fragments and empty links.
// `{baseDir}/`, which Claude Code replaces with the skill's folder, is
// taken as that folder.
func localTarget(dest string) (string, bool) {
	dest = strings.TrimPrefix(dest, "{baseDir}/")
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, `\`) {
		return "", false
	}
	if u, err := url.Parse(dest); err == nil && u.Scheme != "" || strings.Contains(dest, "://") {
		return "", false
	}
	p, _, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	if unescaped, err := url.PathUnescape(p); err == nil {
		p = unescaped
	}
	if p == "" {
		return "", false
	}
	return p, true
}
