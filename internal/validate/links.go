package validate

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// checkLinks reports the relative links and images of the skill's body whose
// target does not exist, or lies outside what a client can fetch with the
// skill: an Agent Skill's folder (progressive disclosure:
// `[forms](references/FORMS.md)`), a tree skill's skills directory. goldmark
// finds the links as Markdown defines them: none in code, reference links
// resolved. URLs, absolute paths and fragments are not checked.
func (f *skillFile) checkLinks(rel func(string) string) {
	if f.doc == nil {
		return
	}
	_, _, body, _ := frontmatter.Block(f.data)
	bodyStart := len(f.md) - len(body)
	fileDir := filepath.Dir(f.skill.AbsPath)
	bound, where := fileDir, "the skill folder"
	if f.skill.Format != core.FormatAgentSkill {
		bound = strings.TrimSuffix(f.skill.AbsPath, filepath.FromSlash(f.skill.FilePath))
		bound, where = filepath.Clean(bound), "the skills directory"
	}
	_ = ast.Walk(f.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		kind := "link"
		switch t := n.(type) {
		case *ast.Link:
			dest = t.Destination
		case *ast.Image:
			dest, kind = t.Destination, "image"
		default:
			return ast.WalkContinue, nil
		}
		off := offsetOf(n)
		if off < bodyStart {
			return ast.WalkContinue, nil // inside a frontmatter block goldmark-meta did not take
		}
		target, ok := localTarget(string(dest))
		if !ok {
			return ast.WalkContinue, nil
		}
		line := 1 + bytes.Count(f.md[:off], []byte("\n"))
		abs := filepath.Join(fileDir, filepath.FromSlash(target))
		if r, err := filepath.Rel(bound, abs); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			f.add("error", line, "%s %q points outside %s: a client fetches only the files of this skill (to point at another skill, name it)", kind, string(dest), where)
			return ast.WalkContinue, nil
		}
		if _, err := os.Stat(abs); err != nil {
			f.add("error", line, "%s %q points to a file that does not exist: no %s", kind, string(dest), rel(abs))
		}
		return ast.WalkContinue, nil
	})
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

// offsetOf is the byte offset in the source of an inline node: its first
// text's, else its block's first line's.
func offsetOf(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}
