package index

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// agentSkillFile is the file that makes a folder an Agent Skill.
const agentSkillFile = "SKILL.md"

// Limits of the Agent Skills specification (agentskills.io/specification).
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
)

// errName: an Agent Skill without a usable `name`; the reason of a skipped file.
var errName = errors.New("name must be a non-empty string")

// ruleBreak is one Agent Skills rule a served skill breaks: the frontmatter key
// at fault and what is wrong.
type ruleBreak struct {
	key, message string
	// severe marks a break validate fails on although the skill is served:
	// a name that differs from its folder's (the folder is its identity).
	severe bool
}

// parseAgentSkill turns the bytes of the SKILL.md of the folder dir (relative
// to its root, `/` separators; rel is the file's own relative path) into a
// skill. `name` and `description` must be non-empty strings, else the error
// says which is missing and the folder is skipped. The other Agent Skills rules
// are checked leniently: each break is returned and the skill served anyway.
// Spec-000 keys (keywords, priority, assets, scripts) are honoured; keywords are
// optional. An Agent Skill never inherits. Its assets and scripts are the
// declared ones, not yet resolved against the folder.
func parseAgentSkill(dir, rel string, data []byte, logger hclog.Logger) (*core.Skill, []ruleBreak, error) {
	fm, body, err := frontmatter.DecodeSkillFile(data)
	if err != nil {
		return nil, nil, err
	}
	name, ok := fm["name"].(string)
	if !ok || strings.TrimSpace(name) == "" {
		return nil, nil, errName
	}
	description, ok := fm["description"].(string)
	if !ok || strings.TrimSpace(description) == "" {
		return nil, nil, errDescription
	}
	name = strings.TrimSpace(name)
	breaks := validateAgentSkill(name, path.Base(dir), fm)
	keywords := []string{}
	if v, declared := fm["keywords"]; declared {
		if kw, err := parseKeywords(v); err == nil {
			keywords = kw
		} else {
			breaks = append(breaks, ruleBreak{key: "keywords", message: err.Error() + " when declared; ignoring it"})
		}
	}
	if _, declared := fm["inherit"]; declared {
		breaks = append(breaks, ruleBreak{key: "inherit", message: "inherit has no effect: an Agent Skill never inherits"})
	}
	s := &core.Skill{
		Path:        dir,
		FilePath:    rel,
		Format:      core.FormatAgentSkill,
		Name:        name,
		Description: description,
		Keywords:    keywords,
		Priority:    parsePriority(fm["priority"]),
		Inherit:     false,
		Assets:      parseAssets(fm["assets"], rel, logger),
		Scripts:     parseScripts(fm["scripts"], rel, logger),
		Body:        bodyInfoOf(body),
	}
	s.Headings = headingsOf(body)
	detachStrings(s)
	return s, breaks, nil
}

// validateAgentSkill checks the Agent Skills rules other than presence: the
// name (1–64 characters of a-z, 0-9 and `-`, no leading, trailing or doubled
// hyphen, equal to the folder name), the description (at most 1024
// characters) and compatibility (a string of at most 500 characters).
func validateAgentSkill(name, folder string, fm map[string]any) []ruleBreak {
	var out []ruleBreak
	nameBreak := func(format string, args ...any) {
		out = append(out, ruleBreak{key: "name", message: fmt.Sprintf(format, args...)})
	}
	if n := utf8.RuneCountInString(name); n > maxNameLen {
		nameBreak("name is %d characters, over the limit of %d", n, maxNameLen)
	}
	if strings.IndexFunc(name, func(r rune) bool { return !isNameRune(r) }) >= 0 {
		nameBreak("name %q may hold only lowercase letters a-z, digits and hyphens", name)
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		nameBreak("name %q must not start or end with a hyphen", name)
	}
	if strings.Contains(name, "--") {
		nameBreak("name %q must not hold consecutive hyphens", name)
	}
	if name != folder {
		out = append(out, ruleBreak{"name", fmt.Sprintf("name %q must equal the folder name %q", name, folder), true})
	}
	if description, _ := fm["description"].(string); utf8.RuneCountInString(description) > maxDescriptionLen {
		out = append(out, ruleBreak{key: "description", message: fmt.Sprintf("description is %d characters, over the limit of %d", utf8.RuneCountInString(description), maxDescriptionLen)})
	}
	if v, declared := fm["compatibility"]; declared {
		switch c, ok := v.(string); {
		case !ok:
			out = append(out, ruleBreak{key: "compatibility", message: "compatibility must be a string"})
		case utf8.RuneCountInString(c) > maxCompatibilityLen:
			out = append(out, ruleBreak{key: "compatibility", message: fmt.Sprintf("compatibility is %d characters, over the limit of %d", utf8.RuneCountInString(c), maxCompatibilityLen)})
		}
	}
	return out
}

// isNameRune reports the characters an Agent Skills name may hold.
func isNameRune(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-'
}
