package skillsext

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// Collision is a skill the skills extension does not serve because another
// skill holds its skill:// URI: two folder names that read the same once made
// URI-safe (`zoho_invoice-automation`, `zoho-invoice-automation`), or an
// Agent Skill whose frontmatter name is another folder's.
type Collision struct {
	// URI is the skill's URI (`skill://zoho-invoice-automation`).
	URI string
	// Skill is the skill left out; Holder the one served at URI.
	Skill, Holder *core.Skill
}

// Collisions lists the skills of snap that the skills extension
// leaves out because another skill holds their URI, in the order the
// extension meets them (what `validate` reports, one finding per pair).
func Collisions(snap *index.Snapshot) []Collision {
	b := newViewBuilder(snap, hclog.NewNullLogger())
	b.build()
	return b.collisions
}

// maxCollisionExamples bounds the pairs the summary warning names.
const maxCollisionExamples = 3

// logCollisions sums the skills left out up in one warning, naming a few
// pairs, and logs each pair at debug level: a collection with 26 of them
// gets one line, not 26.
func (b *viewBuilder) logCollisions() {
	if len(b.collisions) == 0 {
		return
	}
	examples := make([]string, 0, maxCollisionExamples)
	for i, c := range b.collisions {
		b.log.Debug("skills extension: not serving a skill at a URI another skill holds", "skill", c.Skill.Path, "uri", c.URI, "served", c.Holder.Path)
		if i < maxCollisionExamples {
			examples = append(examples, fmt.Sprintf("%s (%s holds %s)", c.Skill.Path, c.Holder.Path, c.URI))
		}
	}
	more := ""
	if n := len(b.collisions) - len(examples); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	noun := "skills are"
	if len(b.collisions) == 1 {
		noun = "skill is"
	}
	b.log.Warn(fmt.Sprintf("skills extension: %d %s not served as skill:// resources, their URI held by another skill: %s%s; "+
		"each stays reachable by its path through the tools; `skills-mcp validate` names each pair",
		len(b.collisions), noun, strings.Join(examples, ", "), more))
}
