package index

import (
	"path"
	"path/filepath"
	"sort"

	"github.com/skills-mcp/skills-mcp/core"
)

// InstallName is file 001's installName: the folder an Agent Skill is
// installed in; for a tree skill its skill path.
func InstallName(s *core.Skill) string {
	if s.Format == core.FormatAgentSkill {
		if dir := path.Dir(s.FilePath); dir != "." {
			return path.Base(dir)
		}
		return filepath.Base(filepath.Dir(s.AbsPath)) // a SKILL.md at the top of its root
	}
	return s.Path
}

// SortByInstallName orders skills by InstallName, then by file and root so
// that skills of the same folder name in different roots keep a stable order.
func SortByInstallName(skills []*core.Skill) {
	sort.SliceStable(skills, func(i, j int) bool {
		a, b := skills[i], skills[j]
		if ia, ib := InstallName(a), InstallName(b); ia != ib {
			return ia < ib
		}
		if a.FilePath != b.FilePath {
			return a.FilePath < b.FilePath
		}
		return a.Root < b.Root
	})
}
