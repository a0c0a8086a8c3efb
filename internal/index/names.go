package index

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
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
// "UI/React/Auth" the tree skill ui/react/auth); a name that is no skill's is
// taken as a skill path (`plugins/a/skills/review`). A name several skills
// share finds the one whose folder bears it (see Lookup); an ambiguous name
// finds none.
func (sn *Snapshot) ByName(name string) (*core.Skill, bool) {
	s, _ := sn.Lookup(name)
	return s, s != nil
}

// Lookup resolves a bare name or a skill path. It returns the skill, or when
// the name is ambiguous nil and the skills it could mean (sorted by path),
// or nil and nil when nothing has that name or path. Of the skills that share
// a name (case-insensitively), the one in a folder named so wins; a skill
// whose `name` differs from its folder's never wins over it; two folders
// bearing the name in one skills directory leave it ambiguous (an earlier
// skills directory wins over a later one), unless the name is exactly the
// path of one of them.
func (sn *Snapshot) Lookup(name string) (*core.Skill, []*core.Skill) {
	key := lookupKey(name)
	if s, ok := sn.names[key]; ok {
		return s, nil
	}
	p := strings.Trim(strings.TrimSpace(name), "/")
	if cands, ok := sn.ambiguous[key]; ok {
		if s, ok := sn.byPath[p]; ok { // "Deploy" of Deploy/ and deploy/: the exact path decides
			return s, nil
		}
		out := append([]*core.Skill(nil), cands...)
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return nil, out
	}
	if s, ok := sn.byPath[p]; ok {
		return s, nil
	}
	for _, s := range sn.sorted { // a path in another case: "Plugins/A/Skills/Review"
		if strings.EqualFold(s.Path, p) {
			return s, nil
		}
	}
	return nil, nil
}

// Resolves reports whether the bare lookup name of s (an Agent Skill's name,
// a tree skill's path) loads s itself; when not, s is reached by its path.
func (sn *Snapshot) Resolves(s *core.Skill) bool {
	return sn.names[lookupKey(lookupName(s))] == s
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

// errControlName is why a file or folder whose name holds a control character
// (a newline, an escape, U+2028) is neither indexed nor served: the name would
// carry it into every listing, log line and report that names the file.
var errControlName = errors.New("its name holds a control character; rename it")

// errInvalidUTF8Name is why a file or folder whose name is not valid UTF-8 is
// neither indexed nor served: a listing can only show it with U+FFFD in
// place of its bytes, a name that then reads nothing (issue 29).
var errInvalidUTF8Name = errors.New("its name is not valid UTF-8, so no listing can name it; rename it")

// badName says why a file or folder name is left out of the index and of
// every listing (errControlName, errInvalidUTF8Name), nil for a fine one.
func badName(name string) error {
	switch {
	case !utf8.ValidString(name):
		return errInvalidUTF8Name
	case textsafe.HasControl(name):
		return errControlName
	}
	return nil
}

// shownPath is rel as a report can print it: as it is when valid UTF-8,
// else with each invalid byte written \xNN.
func shownPath(rel string) string {
	if utf8.ValidString(rel) {
		return rel
	}
	q := strconv.Quote(rel)
	return q[1 : len(q)-1]
}
