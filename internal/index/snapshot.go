package index

import (
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// Snapshot is one immutable, consistent index: the skills found by one rebuild,
// their parent tree, their lookup names, the problems the rebuild found and the
// searcher built over them. It is safe for concurrent
// use; neither it nor the skills it hands out may be modified.
type Snapshot struct {
	refused   map[string]string // skill path → why Options.Admit kept it out
	byPath    map[string]*core.Skill
	sorted    []*core.Skill
	children  map[string][]*core.Skill // parent path ("" for none) → children sorted by path
	searcher  core.Searcher
	names     map[string]*core.Skill        // lookup key (lowercased, trimmed) → the skill it resolves to
	ambiguous map[string][]*core.Skill      // lookup key → the skills it could name, when it resolves to none
	nameList  []string                      // lookup names as declared, sorted by key
	listings  map[*core.Skill]folderListing // the files of each Agent Skills folder
	manifests map[*core.Skill]*skillFiles   // the files of each skill's directory, hashed on request
	problems  []Problem                     // sorted by root order, file, line; complete once late is done
	late      *lateListing                  // the walks left to do once the snapshot is current; nil for none
	maxFile   int64                         // bound of a skill file read for its body
	logger    hclog.Logger                  // for what computing a manifest leaves out
	bodies    bodyCache                     // the bodies read recently (Body)
	roots     map[string]*confine.Root      // what reads are confined to, by directory (confinedRoots)
}

// emptySnapshot is the index before the first rebuild.
func emptySnapshot() *Snapshot {
	return newSnapshot(snapshotParts{byPath: map[string]*core.Skill{}}, nil)
}

// Get returns the skill with the given path.
func (sn *Snapshot) Get(path string) (*core.Skill, bool) {
	s, ok := sn.byPath[path]
	return s, ok
}

// Len returns the number of skills.
func (sn *Snapshot) Len() int { return len(sn.sorted) }

// Paths returns every skill path, sorted.
func (sn *Snapshot) Paths() []string {
	out := make([]string, len(sn.sorted))
	for i, s := range sn.sorted {
		out[i] = s.Path
	}
	return out
}

// Skills returns every skill, sorted by path. The slice is the caller's; the
// skills are shared and must not be modified.
func (sn *Snapshot) Skills() []*core.Skill {
	return append([]*core.Skill(nil), sn.sorted...)
}

// Searcher returns the searcher built over this snapshot's skills; it is never nil.
func (sn *Snapshot) Searcher() core.Searcher { return sn.searcher }

// Chain returns s's inheritance chain (spec 000 §6.1): its resolved ancestors
// from the root down, ending with s itself; only s when s.Inherit is false.
func (sn *Snapshot) Chain(s *core.Skill) []*core.Skill {
	if !s.Inherit {
		return []*core.Skill{s}
	}
	chain := []*core.Skill{s}
	for p := s.Parent; p != ""; {
		parent, ok := sn.byPath[p]
		if !ok || len(chain) > len(sn.sorted) {
			break // a skill from another snapshot, or a cycle: stop at what is known
		}
		chain = append(chain, parent)
		p = parent.Parent
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// ancestors returns s's ancestors nearest first (empty when s does not inherit).
func (sn *Snapshot) ancestors(s *core.Skill) []*core.Skill {
	chain := sn.Chain(s)
	out := make([]*core.Skill, 0, len(chain)-1)
	for i := len(chain) - 2; i >= 0; i-- {
		out = append(out, chain[i])
	}
	return out
}
