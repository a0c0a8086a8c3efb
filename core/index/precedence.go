package index

import (
	"fmt"
	"sort"

	"github.com/skills-mcp/skills-mcp/core"
)

// merger gathers the skills of the roots, in precedence order, into the path
// and name tables of a snapshot.
type merger struct {
	b      *builder
	byPath map[string]*core.Skill
	names  map[string]*core.Skill // lookupKey → skill
}

func newMerger(b *builder) *merger {
	return &merger{b: b, byPath: map[string]*core.Skill{}, names: map[string]*core.Skill{}}
}

// addRoot adds the skills of the next root. A skill whose path an earlier skill
// holds is shadowed (left out, reported), and so is an Agent Skill whose name
// (case-insensitive) an earlier Agent Skill holds: an earlier root's, or within
// one root the one with the smaller path. Within a root the Agent Skills claim
// their lookup names before the tree skills; a skill whose lookup name another
// format already holds stays in the index, reachable by path only, and is
// reported.
func (m *merger) addRoot(skills []*core.Skill) {
	sort.SliceStable(skills, func(i, j int) bool {
		ai, aj := skills[i].Format == core.FormatAgentSkill, skills[j].Format == core.FormatAgentSkill
		if ai != aj {
			return ai
		}
		return skills[i].Path < skills[j].Path
	})
	for _, s := range skills {
		if prev, dup := m.byPath[s.Path]; dup {
			m.shadow(s, prev, "skill "+s.Path)
			continue
		}
		key := lookupKey(lookupName(s))
		prev, taken := m.names[key]
		if taken && s.Format == core.FormatAgentSkill && prev.Format == core.FormatAgentSkill {
			m.shadow(s, prev, fmt.Sprintf("Agent Skill %q", s.Name))
			continue
		}
		m.byPath[s.Path] = s
		if taken {
			m.b.warn(s.FilePath, 1, SeverityWarning, fmt.Sprintf("the name %q already refers to %s, so skill %s is reachable by its path only", lookupName(s), prev.AbsPath, s.Path))
			continue
		}
		m.names[key] = s
	}
}

// shadow reports s, left out because prev came first with the same path or name.
func (m *merger) shadow(s, prev *core.Skill, what string) {
	m.b.logger.Warn(fmt.Sprintf("skipping %s: %s already comes from %s", s.AbsPath, what, prev.AbsPath))
	m.b.problem(s.FilePath, 1, SeverityWarning, fmt.Sprintf("shadowed: %s already comes from %s", what, prev.AbsPath))
}
