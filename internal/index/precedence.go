package index

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/skills-mcp/skills-mcp/core"
)

// merger gathers the skills of the roots, in precedence order, into the path
// and name tables of a snapshot. A skill's identity is its path: every skill
// with a path of its own is served, whatever its name; names are labels that
// resolve to one skill when they can (resolveName).
type merger struct {
	b      *builder
	byPath map[string]*core.Skill
	first  map[string]*core.Skill   // lookupKey → the first skill with that lookup name
	more   map[string][]*core.Skill // lookupKey → every skill with it, when there are several
	rank   map[*core.Skill]int      // the position of each skill's root
}

func newMerger(b *builder) *merger {
	return &merger{b: b, byPath: map[string]*core.Skill{}, first: map[string]*core.Skill{}, more: map[string][]*core.Skill{}, rank: map[*core.Skill]int{}}
}

// addRoot adds the skills of the next root. A skill whose path an earlier
// root's skill holds is shadowed (left out, reported): the roots are layers of
// one tree (project over global). Every other skill is served and claims its
// lookup name; two skills claiming one name are resolved (or found ambiguous)
// once every root is in (names).
func (m *merger) addRoot(skills []*core.Skill) {
	sort.SliceStable(skills, func(i, j int) bool { return skills[i].Path < skills[j].Path })
	for _, s := range skills {
		if prev, dup := m.byPath[s.Path]; dup {
			m.shadow(s, prev, "skill "+s.Path)
			continue
		}
		m.byPath[s.Path] = s
		m.rank[s] = m.b.rank
		key := lookupKey(lookupName(s))
		switch prev, taken := m.first[key]; {
		case !taken:
			m.first[key] = s
		case m.more[key] == nil:
			m.more[key] = []*core.Skill{prev, s}
		default:
			m.more[key] = append(m.more[key], s)
		}
	}
}

// shadow reports s, left out because prev came first with the same path;
// the start-up log names it in its root's summary line (logShadowed).
func (m *merger) shadow(s, prev *core.Skill, what string) {
	m.b.noteLine(kindShadowed, s.FilePath, 1, SeverityWarning, fmt.Sprintf("shadowed: %s already comes from %s", what, prev.AbsPath), "")
	m.b.problems[len(m.b.problems)-1].subject = s.Path
}

// nameTable is what a snapshot knows of names: the skill each resolvable
// lookup key names, and the candidates of each ambiguous one.
type nameTable struct {
	resolved  map[string]*core.Skill
	ambiguous map[string][]*core.Skill // candidates in preference order
}

// names resolves every claimed name (resolveName) and reports each collision:
// the same name (exact or differing only in case) claimed twice, and names
// equal once Unicode-normalized (NFKC) and case-folded.
func (m *merger) names() nameTable {
	t := nameTable{resolved: make(map[string]*core.Skill, len(m.first)), ambiguous: map[string][]*core.Skill{}}
	for k, s := range m.first {
		t.resolved[k] = s
	}
	for _, k := range sortedKeys(m.more) {
		cands := m.more[k]
		sort.SliceStable(cands, func(i, j int) bool { return m.prefer(cands[i], cands[j]) })
		m.first[k] = cands[0]
		if winner := m.resolveName(cands); winner != nil {
			t.resolved[k] = winner
		} else {
			delete(t.resolved, k)
			t.ambiguous[k] = cands
		}
		m.reportSameKey(cands, t.resolved[k])
	}
	m.reportNormalized()
	return t
}

// reportNormalized reports the names that differ but are equal once
// Unicode-normalized; with only ASCII names there are none to look for.
func (m *merger) reportNormalized() {
	keys := sortedKeys(m.first)
	if !slices.ContainsFunc(keys, hasNonASCII) {
		return
	}
	normalized := make(map[string]string, len(keys)) // normalized key → the first key (sorted) normalizing to it
	for _, k := range keys {
		nk := normalizeName(k)
		prev, seen := normalized[nk]
		if !seen {
			normalized[nk] = k
			continue
		}
		a, b := m.first[prev], m.first[k]
		m.collide(b, a, fmt.Sprintf("name %q and the name %q of %s are the same once Unicode-normalized (NFKC): clients that normalize names cannot tell them apart; rename one",
			lookupName(b), lookupName(a), a.AbsPath))
	}
}

// reportSameKey reports the skills of one lookup key after the first: the
// same name, or one differing only in case.
func (m *merger) reportSameKey(cands []*core.Skill, winner *core.Skill) {
	first := cands[0]
	for _, s := range cands[1:] {
		kind := "the same name as"
		if lookupName(s) != lookupName(first) {
			kind = "a name differing only in case from"
		}
		kind = fmt.Sprintf("%q has %s", lookupName(s), kind)
		outcome := fmt.Sprintf("the bare name %q is ambiguous (call it by path: %s)", lookupName(s), s.Path)
		if winner != nil {
			outcome = fmt.Sprintf("the bare name %q loads %s; this one is reached by its path %s", lookupName(s), winner.Path, s.Path)
		}
		m.collide(s, first, fmt.Sprintf("name collision: %s %s; %s", kind, first.AbsPath, outcome))
	}
}

// collide records a name collision of s with other: an error, unless they
// come from two collections named to be served side by side (Root.Prefix),
// where a name both hold is expected: each is reached by its own path.
func (m *merger) collide(s, other *core.Skill, message string) {
	b := m.b
	severity := SeverityError
	if s.Root != other.Root && b.prefixes[s.Root] != "" && b.prefixes[other.Root] != "" {
		severity = SeverityWarning
	}
	rank, root := b.rank, b.root
	b.rank, b.root = m.rank[s], s.Root
	b.note(kindCollision, s.FilePath, 1, severity, message)
	b.rank, b.root = rank, root
}

// prefer orders the candidates of one name: a skill whose folder (or tree
// path) carries the name first, then the Agent Skill before the tree skill,
// then the earlier root, then the smaller path.
func (m *merger) prefer(a, b *core.Skill) bool {
	if fa, fb := ownsName(a), ownsName(b); fa != fb {
		return fa
	}
	if aa, ab := a.Format == core.FormatAgentSkill, b.Format == core.FormatAgentSkill; aa != ab {
		return aa
	}
	if m.rank[a] != m.rank[b] {
		return m.rank[a] < m.rank[b]
	}
	return a.Path < b.Path
}

// resolveName picks the skill a bare name loads among cands (in preference
// order): the only one, else the first when it owns the name (its folder is
// named so) and nothing equal to it in that respect and format comes second.
// A skill whose name differs from its folder's never wins over one that owns
// the name; two that own it leave it ambiguous (nil), whether in one root or
// in two: only the same path shadows across roots (addRoot), so a later
// collection's pdf/ is not hidden behind an earlier one's docs/pdf/.
func (m *merger) resolveName(cands []*core.Skill) *core.Skill {
	if len(cands) == 1 {
		return cands[0]
	}
	a, b := cands[0], cands[1]
	if !ownsName(a) {
		return nil
	}
	if ownsName(b) && (a.Format == core.FormatAgentSkill) == (b.Format == core.FormatAgentSkill) {
		return nil
	}
	return a
}

// ownsName reports whether s's name is its own: an Agent Skill whose folder
// bears its name, or a tree skill (named by its path).
func ownsName(s *core.Skill) bool {
	return s.Format != core.FormatAgentSkill || strings.EqualFold(path.Base(s.Path), s.Name)
}

// normalizeName is a lookup key as clients that normalize Unicode compare
// names: NFKC, then lowercased. An ASCII key (lowercased already) is its own.
func normalizeName(key string) string {
	if !hasNonASCII(key) {
		return key
	}
	return strings.ToLower(norm.NFKC.String(key))
}

// hasNonASCII reports a byte beyond ASCII in s.
func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
