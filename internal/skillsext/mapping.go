package skillsext

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/jsonstr"
)

// skillFile is the file that makes a directory a skill under the extension.
const skillFile = "SKILL.md"

// maxSkillNameLen is the Agent Skills limit on a name.
const maxSkillNameLen = 64

// rootSkillName names `_root`, whose own last segment is not a valid name; a
// top-level `_index` becomes `index` the same way.
const rootSkillName = "root"

// fallbackSkillName stands for a segment with no letter or digit to keep.
const fallbackSkillName = "skill"

// URI is the skill:// URI of the directory where the extension serves s
// (`skill://ui/react/auth`): the base directory a remote client is given.
func URI(s *core.Skill) string {
	p, _ := extensionPath(s)
	return skillScheme + p
}

// extensionPath returns where the skills extension serves s: the skill path
// under `skill://` (its segments safe in a URI) and the skill name, which is
// always its last segment and a valid Agent Skills name.
//
// An Agent Skill keeps its folder path; its last segment becomes its
// frontmatter name when that is a valid name (so the URI ends in the name even
// when the folder is named otherwise), else the folder name made valid. A tree
// skill drops a trailing `_index` (`ui/_index` → `ui`) and makes its last
// segment a valid name (`_root` → `root`, `ui/React_Hooks` → `ui/react-hooks`).
// Other segments are kept when they hold only URI-unreserved characters and
// are made valid names otherwise.
func extensionPath(s *core.Skill) (path, name string) {
	segs := strings.Split(s.Path, "/")
	if s.Format != core.FormatAgentSkill && len(segs) > 1 && segs[len(segs)-1] == core.IndexSegment {
		segs = segs[:len(segs)-1]
	}
	for i, seg := range segs[:len(segs)-1] {
		segs[i] = uriSegment(seg)
	}
	last := segs[len(segs)-1]
	switch {
	case s.Format == core.FormatAgentSkill && validSkillName(s.Name):
		name = s.Name
	case s.Path == core.RootPath:
		name = rootSkillName
	default:
		name = skillName(last)
	}
	segs[len(segs)-1] = name
	return strings.Join(segs, "/"), name
}

// validSkillName reports an Agent Skills name: 1–64 characters of a-z, 0-9 and
// `-`, no leading, trailing or doubled hyphen.
func validSkillName(name string) bool {
	return name != "" && len(name) <= maxSkillNameLen && skillName(name) == name
}

// skillName makes seg a valid Agent Skills name: lowercased, every run of other
// characters than a-z and 0-9 turned into one hyphen, hyphens trimmed from
// both ends, cut to 64 characters; "skill" when nothing is left.
func skillName(seg string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(seg) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	name := b.String()
	if len(name) > maxSkillNameLen {
		name = strings.TrimRight(name[:maxSkillNameLen], "-")
	}
	if name == "" {
		return fallbackSkillName
	}
	return name
}

// uriSegment keeps a prefix segment made only of URI-unreserved characters
// (letters, digits, `-._~`, not `.` or `..`), which is also a valid authority,
// and makes any other a valid name.
func uriSegment(seg string) string {
	if seg == "." || seg == ".." || seg == "" {
		return skillName(seg)
	}
	for _, r := range seg {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~') {
			return skillName(seg)
		}
	}
	return seg
}

// escapeFilePath escapes each segment of a `/`-separated path relative to a
// skill's directory for use in a URI path (`a b/c#d.md` → `a%20b/c%23d.md`).
func escapeFilePath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// virtualFrontmatter is the frontmatter of the SKILL.md served for a tree
// skill, in file order.
type virtualFrontmatter struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// virtualSkillMD renders the SKILL.md the extension serves for the tree skill
// s: a frontmatter holding name and description, each written as a
// double-quoted string (JSON string syntax is YAML too, so every YAML parser
// reads back exactly these strings, never a number or a boolean), a blank
// line, then what get_skill returns for s (inheritance applied) and a newline;
// or the error of reading the bodies (index.Snapshot.Content).
func virtualSkillMD(snap *index.Snapshot, s *core.Skill, name string) ([]byte, error) {
	body, err := snap.Content(s)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\nname: ")
	jsonstr.Write(&b, name, false)
	b.WriteString("\ndescription: ")
	jsonstr.Write(&b, s.Description, false)
	b.WriteString("\n---\n\n")
	b.WriteString(body)
	b.WriteString("\n")
	return b.Bytes(), nil
}

// quoteYAML writes s as a double-quoted scalar: JSON string syntax, without
// escaping HTML characters, which YAML double-quoted scalars read back as is.
func quoteYAML(s string) string {
	var b strings.Builder
	jsonstr.Write(&b, s, false)
	return b.String()
}
