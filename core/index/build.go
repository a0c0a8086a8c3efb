package index

import (
	"fmt"
	"os"
	"sort"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// scanRoot discovers and parses every skill under root (spec 000 §4.1–§4.5,
// §7.1). Invalid or unreadable files are skipped with one warning each.
func scanRoot(root string, logger hclog.Logger) ([]*core.Skill, error) {
	files, err := discover(root, logger)
	if err != nil {
		return nil, err
	}
	skills := make([]*core.Skill, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			logger.Warn(fmt.Sprintf("skipping %s: %v", f.Rel, err))
			continue
		}
		s, err := parseSkill(f.Rel, data, logger)
		if err != nil {
			logger.Warn(fmt.Sprintf("skipping %s: %v", f.Rel, err))
			continue
		}
		s.AbsPath = f.Abs
		s.Root = root
		s.ResourceDir = resourceDirOf(f.Abs)
		resolveResources(s, logger)
		skills = append(skills, s)
	}
	return skills, nil
}

// buildSnapshot indexes every root, in order: when two roots hold the same skill
// path, the first root wins and the other file is skipped with a warning. It then
// resolves parents (spec 000 §4.4) and builds the searcher.
func buildSnapshot(roots []string, matcher core.Matcher, logger hclog.Logger) (*Snapshot, error) {
	byPath := map[string]*core.Skill{}
	for _, root := range roots {
		skills, err := scanRoot(root, logger)
		if err != nil {
			return nil, err
		}
		for _, s := range skills {
			if prev, dup := byPath[s.Path]; dup {
				logger.Warn(fmt.Sprintf("skipping %s in %s: skill %s already comes from %s", s.FilePath, root, s.Path, prev.Root))
				continue
			}
			byPath[s.Path] = s
		}
	}
	exists := func(p string) bool { _, ok := byPath[p]; return ok }
	for _, s := range byPath {
		s.Parent = resolveParent(s.Path, exists)
	}
	return newSnapshot(byPath, matcher), nil
}

// newSnapshot freezes skills (keyed by path, parents resolved) into a Snapshot.
func newSnapshot(byPath map[string]*core.Skill, matcher core.Matcher) *Snapshot {
	sorted := make([]*core.Skill, 0, len(byPath))
	for _, s := range byPath {
		sorted = append(sorted, s)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	children := map[string][]*core.Skill{}
	entries := make([]core.MatchEntry, 0, len(sorted))
	for _, s := range sorted {
		children[s.Parent] = append(children[s.Parent], s)
		entries = append(entries, core.MatchEntry{
			Path:     s.Path,
			Keywords: append([]string(nil), s.Keywords...),
			Priority: s.Priority,
		})
	}
	var searcher core.Searcher = emptySearcher{}
	if matcher != nil {
		if built := matcher.Build(entries); built != nil {
			searcher = built
		}
	}
	return &Snapshot{byPath: byPath, sorted: sorted, children: children, searcher: searcher}
}

// emptySearcher matches nothing: the searcher of an empty index or of an index
// built without a matcher.
type emptySearcher struct{}

// Search implements core.Searcher.
func (emptySearcher) Search(string) []core.Match { return nil }
