package index

import (
	"slices"

	"github.com/skills-mcp/skills-mcp/core"
)

// sharePrevious points the strings of s, just scanned, at the equal strings of
// the skill of the same path in prev, the snapshot served while this one is
// built, when every one of them is equal: a refresh that changed little then
// holds one copy of each unchanged skill's strings while both snapshots are
// alive, instead of two (the copies just made are left to the collector at
// once), and the new snapshot keeps the old one's once that is released. Each
// string is replaced only by bytes equal to it, so nothing served changes; a
// skill with any string changed keeps all of its own, so it never holds the
// old snapshot's allocations for a few of them. Only what the scan sets is
// compared (not the parent, resolved later, nor the headings, which a served
// snapshot no longer holds).
func sharePrevious(prev *Snapshot, s *core.Skill) {
	if prev == nil {
		return
	}
	old, ok := prev.byPath[s.Path]
	if !ok || !sameStrings(s, old) {
		return
	}
	s.Path, s.FilePath, s.AbsPath, s.ResourceDir = old.Path, old.FilePath, old.AbsPath, old.ResourceDir
	s.Name, s.Description = old.Name, old.Description
	copy(s.Keywords, old.Keywords)
	for i := range s.Assets {
		a, o := &s.Assets[i], &old.Assets[i]
		a.File, a.Description, a.Type, a.AbsPath = o.File, o.Description, o.Type, o.AbsPath
	}
	for i := range s.Scripts {
		sc, o := &s.Scripts[i], &old.Scripts[i]
		sc.File, sc.Description, sc.Execution, sc.AbsPath = o.File, o.Description, o.Execution, o.AbsPath
		copy(sc.Needs, o.Needs)
		for j := range sc.Args {
			sc.Args[j].Name, sc.Args[j].Description = o.Args[j].Name, o.Args[j].Description
		}
	}
}

// sameStrings reports whether every string sharePrevious replaces in s is
// equal to its counterpart in old, slices of the same lengths.
func sameStrings(s, old *core.Skill) bool {
	if s.Path != old.Path || s.FilePath != old.FilePath || s.AbsPath != old.AbsPath || s.ResourceDir != old.ResourceDir ||
		s.Name != old.Name || s.Description != old.Description ||
		len(s.Keywords) != len(old.Keywords) || len(s.Assets) != len(old.Assets) || len(s.Scripts) != len(old.Scripts) {
		return false
	}
	for i, k := range s.Keywords {
		if k != old.Keywords[i] {
			return false
		}
	}
	for i, a := range s.Assets {
		o := old.Assets[i]
		if a.File != o.File || a.Description != o.Description || a.Type != o.Type || a.AbsPath != o.AbsPath {
			return false
		}
	}
	for i, sc := range s.Scripts {
		o := old.Scripts[i]
		if sc.File != o.File || sc.Description != o.Description || sc.Execution != o.Execution || sc.AbsPath != o.AbsPath ||
			len(sc.Args) != len(o.Args) || !slices.Equal(sc.Needs, o.Needs) {
			return false
		}
		for j, a := range sc.Args {
			if a.Name != o.Args[j].Name || a.Description != o.Args[j].Description {
				return false
			}
		}
	}
	return true
}
