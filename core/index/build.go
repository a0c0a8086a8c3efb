package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// builder runs one rebuild: it scans the roots in order, logs what it skips and
// records every problem for the snapshot.
type builder struct {
	logger   hclog.Logger
	problems []rankedProblem
	listings map[*core.Skill]folderListing
	// rank and root are the position and absolute directory of the root being scanned.
	rank int
	root string
}

// problem records a problem of file (relative to the current root) without logging it.
func (b *builder) problem(file string, line int, severity, message string) {
	b.problems = append(b.problems, rankedProblem{
		Problem:  Problem{File: file, Root: b.root, Line: line, Severity: severity, Message: message},
		rootRank: b.rank,
	})
}

// warn records a problem and logs it as one warning line naming the file.
func (b *builder) warn(file string, line int, severity, message string) {
	b.logger.Warn(file + ": " + message)
	b.problem(file, line, severity, message)
}

// skip logs `skipping FILE: REASON` and records an error problem.
func (b *builder) skip(file string, line int, reason error) {
	b.logger.Warn(fmt.Sprintf("skipping %s: %v", file, reason))
	b.problem(file, line, SeverityError, "skipped: "+reason.Error())
}

// scanRoot discovers and parses every skill under root (spec 000 §4.1–§4.5,
// §7.1, and the Agent Skills folders). Invalid or unreadable files are skipped
// with one warning each; an Agent Skill that breaks a rule of its format is
// kept and reported.
func (b *builder) scanRoot(root Root) ([]*core.Skill, error) {
	files, err := b.discover(root.Dir)
	if err != nil {
		return nil, err
	}
	skills := make([]*core.Skill, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			b.skip(f.Rel, 1, err)
			continue
		}
		var s *core.Skill
		if f.AgentDir != "" {
			s = b.parseAgentFile(f, data)
		} else {
			s = b.parseTreeFile(f, data)
		}
		if s == nil {
			continue
		}
		s.AbsPath, s.Root, s.Source = f.Abs, root.Dir, root.Source
		b.resolveResources(s, data)
		if s.Format == core.FormatAgentSkill {
			b.listings[s] = listFolder(s.ResourceDir)
			if nested := b.listings[s].nested; nested != "" {
				b.warn(f.AgentDir+"/"+nested, 1, SeverityWarning,
					fmt.Sprintf("not indexed: a SKILL.md inside the Agent Skills folder %s is part of its content, not a skill", f.AgentDir))
			}
		}
		skills = append(skills, s)
	}
	return skills, nil
}

// parseTreeFile parses a spec-000 file, or skips it; unknown frontmatter keys
// are recorded.
func (b *builder) parseTreeFile(f discovered, data []byte) *core.Skill {
	s, err := parseSkill(f.Rel, data, b.logger)
	if err != nil {
		b.skip(f.Rel, errorLine(data, err), err)
		return nil
	}
	s.ResourceDir = resourceDirOf(f.Abs)
	for _, key := range sortedKeys(s.Frontmatter) {
		if !knownKeys[key] {
			b.problem(f.Rel, keyLine(data, key), SeverityWarning, fmt.Sprintf("unknown frontmatter key %q", key))
		}
	}
	return s
}

// parseAgentFile parses the SKILL.md of an Agent Skills folder, or skips it;
// the rules it breaks are logged on one line and recorded one by one.
func (b *builder) parseAgentFile(f discovered, data []byte) *core.Skill {
	s, breaks, err := parseAgentSkill(f.AgentDir, f.Rel, data, b.logger)
	if err != nil {
		b.skip(f.Rel, errorLine(data, err), err)
		return nil
	}
	s.ResourceDir = filepath.Dir(f.Abs)
	if len(breaks) > 0 {
		msgs := make([]string, len(breaks))
		for i, br := range breaks {
			msgs[i] = br.message
			b.problem(f.Rel, keyLine(data, br.key), SeverityWarning, br.message)
		}
		b.logger.Warn(fmt.Sprintf("%s: served although it breaks Agent Skills rules: %s", f.Rel, strings.Join(msgs, "; ")))
	}
	return s
}

// knownKeys are the frontmatter keys of both formats; any other key of a tree
// file is reported.
var knownKeys = map[string]bool{
	"description": true, "keywords": true, "priority": true, "inherit": true,
	"assets": true, "scripts": true, "name": true, "license": true,
	"compatibility": true, "metadata": true, "allowed-tools": true,
}

// yamlLine finds the line number yaml.v2 puts in its errors.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// errorLine is the best-known line of the reason a file was skipped: the key a
// validation error is about, the YAML error's line (shifted past the opening
// delimiter), else 1.
func errorLine(data []byte, err error) int {
	switch {
	case errors.Is(err, errName):
		return keyLine(data, "name")
	case errors.Is(err, errDescription):
		return keyLine(data, "description")
	case errors.Is(err, errKeywords):
		return keyLine(data, "keywords")
	}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n > 0 {
			return n + 1
		}
	}
	return 1
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// buildSnapshot indexes every root, in order (an earlier root takes precedence),
// resolves the parents of the tree skills (spec 000 §4.4), and builds the
// searcher. A root that does not exist is skipped, unless it is Required; one
// that cannot be read is a warning, unless it is Required. It fails when a
// required root fails, or when every root that exists fails.
func buildSnapshot(roots []Root, matcher core.Matcher, logger hclog.Logger) (*Snapshot, error) {
	b := &builder{logger: logger, listings: map[*core.Skill]folderListing{}}
	m := newMerger(b)
	existing, failed := 0, 0
	var errs []error
	for i, root := range roots {
		b.rank, b.root = i, root.Dir
		if _, err := os.Stat(root.Dir); errors.Is(err, fs.ErrNotExist) && !root.Required {
			logger.Debug("skills directory does not exist, skipping it", "dir", root.Dir, "source", root.Source)
			continue
		}
		existing++
		skills, err := b.scanRoot(root)
		if err != nil {
			if root.Required {
				return nil, err
			}
			failed++
			errs = append(errs, err)
			logger.Warn(fmt.Sprintf("skipping skills directory %s (%s): %v", root.Dir, root.Source, err))
			b.problem(".", 1, SeverityError, "skipped: "+err.Error())
			continue
		}
		m.addRoot(skills)
	}
	if existing > 0 && failed == existing {
		return nil, errors.Join(errs...)
	}
	isTree := func(p string) bool { s, ok := m.byPath[p]; return ok && s.Format != core.FormatAgentSkill }
	for _, s := range m.byPath {
		if s.Format != core.FormatAgentSkill {
			s.Parent = resolveParent(s.Path, isTree)
		}
	}
	manifests := b.buildManifests(roots, m.byPath)
	return newSnapshot(snapshotParts{
		byPath:    m.byPath,
		names:     m.names,
		listings:  b.listings,
		manifests: manifests,
		problems:  sortProblems(b.problems),
	}, matcher), nil
}

// snapshotParts is what a rebuild hands to newSnapshot.
type snapshotParts struct {
	byPath    map[string]*core.Skill // parents resolved
	names     map[string]*core.Skill // lookup key (lowercased, trimmed) → skill
	listings  map[*core.Skill]folderListing
	manifests map[*core.Skill]skillManifest // the files of each skill's directory, hashed
	problems  []Problem
}

// newSnapshot freezes a rebuild's skills into a Snapshot and builds its searcher.
func newSnapshot(p snapshotParts, matcher core.Matcher) *Snapshot {
	sorted := make([]*core.Skill, 0, len(p.byPath))
	for _, s := range p.byPath {
		sorted = append(sorted, s)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	children := map[string][]*core.Skill{}
	entries := make([]core.MatchEntry, 0, len(sorted))
	for _, s := range sorted {
		children[s.Parent] = append(children[s.Parent], s)
		entries = append(entries, core.MatchEntry{
			Path:        s.Path,
			Keywords:    append([]string(nil), s.Keywords...),
			Priority:    s.Priority,
			Name:        s.Name,
			Description: s.Description,
		})
	}
	var searcher core.Searcher = emptySearcher{}
	if matcher != nil {
		if built := matcher.Build(entries); built != nil {
			searcher = built
		}
	}
	if p.names == nil {
		p.names = map[string]*core.Skill{}
	}
	return &Snapshot{
		byPath:    p.byPath,
		sorted:    sorted,
		children:  children,
		searcher:  searcher,
		names:     p.names,
		nameList:  sortedNames(p.names),
		listings:  p.listings,
		manifests: p.manifests,
		problems:  p.problems,
	}
}

// emptySearcher matches nothing: the searcher of an empty index or of an index
// built without a matcher.
type emptySearcher struct{}

// Search implements core.Searcher.
func (emptySearcher) Search(string) []core.Match { return nil }
