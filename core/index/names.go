package index

import (
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// lookupName is the name the `skill` tool knows s by: an Agent Skill's `name`,
// a tree skill's path.
func lookupName(s *core.Skill) string {
	if s.Format == core.FormatAgentSkill {
		return s.Name
	}
	return s.Path
}

// lookupKey normalises a name for lookup: trimmed and lowercased.
func lookupKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// ByName finds a skill as the `skill` tool does (files 002/003): the name is
// trimmed and compared case-insensitively with every Agent Skill's `name` and
// every tree skill's path ("Git" finds the Agent Skill named git,
// "UI/React/Auth" the tree skill ui/react/auth).
func (sn *Snapshot) ByName(name string) (*core.Skill, bool) {
	s, ok := sn.names[lookupKey(name)]
	return s, ok
}

// Names returns the lookup names ByName accepts, as declared (Agent Skills
// names and tree skill paths), sorted case-insensitively. The slice is the caller's.
func (sn *Snapshot) Names() []string {
	return append([]string(nil), sn.nameList...)
}

// sortedNames lists the lookup names of a name table, sorted by key.
func sortedNames(names map[string]*core.Skill) []string {
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = lookupName(names[k])
	}
	return out
}
